# Uma chamada para um lugar no tablet do dealer: primeiro no ecrã, um toque, uma vibração, o ecrã acordado.
call-alert-sound = Toque e vibração
call-alert-vibrate = Só vibração
call-alert-off = Nenhum (a chamada só aparece em primeiro lugar)
admin-room-call-alert = Chamadas nos tablets
admin-room-call-alert-hint = Como uma nova chamada para um lugar é anunciada nos tablets dos dealers, quando o dispositivo o permite. A chamada aparece sempre em primeiro lugar no ecrã da mesa e o ecrã não se apaga enquanto houver uma chamada aberta; cada tablet pode silenciar-se durante 10 minutos.
calls-sound-arm = Toque para ativar o som
calls-sound-arm-hint = O navegador só toca som depois de um primeiro toque na página
calls-mute = Silenciar 10 min
calls-mute-hint = Sem toque nem vibração neste tablet durante 10 minutos
calls-muted = Silenciado
calls-muted-hint = Toque para voltar a ter som já
calls-banner = { $count ->
    [one] Há uma chamada para um lugar
   *[other] Há { $count } chamadas para lugares
}
calls-banner-back = Voltar à mesa
