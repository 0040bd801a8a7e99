# Mensagens aos jogadores (SMS e e-mail) e a página de mensagens da sala.
# Os SMS cabem num segmento sempre que possível (160 caracteres GSM-7, ou 70 quando há um
# caráter fora do GSM-7); o remetente identifica a sala.

notify-added-sms = Lista { $game }: tem o lugar { $position }. Acompanhe ao vivo: { $link }
notify-added-subject = Está na lista { $game }
notify-next-sms = Segue-se a sua vez na lista { $game }. Fique perto da sala.
notify-next-subject = Segue-se a sua vez: { $game }
notify-nearly-next-sms = Está em { $position }.º lugar na lista { $game }. Falta pouco.
notify-nearly-next-subject = Falta pouco: { $game }
notify-seat-ready-sms = Lugar pronto: mesa { $table }, lugar { $seat } ({ $game }). Venha até { $time }. Responda: { $link }
notify-seat-ready-subject = O seu lugar está pronto: mesa { $table }, lugar { $seat }
notify-call-expired-sms = O lugar na mesa { $table } passou ao jogador seguinte. { $outcome ->
    [bottom] Voltou ao fim da lista { $game }.
   *[removed] Saiu da lista { $game }.
}
notify-call-expired-subject = A chamada expirou: mesa { $table }
notify-removed-sms = Já não está na lista { $game }: a sala retirou a sua inscrição.
notify-removed-subject = Fora da lista { $game }
notify-must-move-sms = Mudança obrigatória: mesa { $table }, lugar { $seat } ({ $game }). Vá já, até às { $time }.
notify-must-move-subject = Mude para a mesa { $table }, lugar { $seat }
notify-custody-sms = Fichas da mesa { $table } em custódia: { $amount } ({ $storage }). Peça-as no balcão.
notify-custody-subject = As suas fichas estão em custódia
notify-email-link = O seu lugar na lista, ao vivo: { $link }
notify-email-footer = — { $room }

outbox-title = Mensagens aos jogadores
outbox-intro = Todos os SMS e e-mails aos jogadores: à espera, a enviar, enviados ou falhados, com cada tentativa. Uma mensagem falhada pode ser enviada de novo.
outbox-none = Sem mensagens.
outbox-filter-player = Jogador
outbox-filter-status = Estado
outbox-filter-all = Todos
outbox-filter = Filtrar
outbox-created = Criada
outbox-player = Jogador
outbox-kind = Mensagem
outbox-channel = Canal
outbox-recipient = Para
outbox-status = Estado
outbox-attempts = Tentativas
outbox-text = Texto
outbox-not-written = (escrita na primeira tentativa)
outbox-retry = Tentar agora
outbox-retried = A mensagem vai ser enviada de novo.
outbox-failed-alert = { $count ->
    [one] Falhou 1 mensagem a um jogador.
   *[other] Falharam { $count } mensagens a jogadores.
}
outbox-see = Ver mensagens
outbox-attempt-line = Tentativa { $n }: { $outcome }
outbox-status-pending = à espera
outbox-status-sending = a enviar
outbox-status-sent = enviada
outbox-status-failed = falhou
outbox-outcome-started = iniciada
outbox-outcome-sent = enviada
outbox-outcome-error = erro
outbox-outcome-interrupted = interrompida (o envio parou)
outbox-channel-sms = SMS
outbox-channel-email = e-mail
outbox-kind-added = entrada na lista
outbox-kind-next = segue-se a sua vez
outbox-kind-nearly_next = falta pouco
outbox-kind-seat_ready = lugar pronto
outbox-kind-call_expired = chamada expirada
outbox-kind-removed = retirado da lista
outbox-kind-must_move = mudança obrigatória
outbox-kind-custody = fichas em custódia
outbox-next-try = nova tentativa às { $time }
err-message-not-failed = Só uma mensagem falhada pode ser enviada de novo.
err-message-status = O estado deve ser pending, sending, sent ou failed.

notify-link-sms = O seu lugar na lista em { $room }, em direto: { $link }
notify-link-subject = A sua ligação para acompanhar o seu lugar na lista
outbox-kind-link = ligação reenviada

# join
notify-join-code-sms = { $code } é o seu código para as listas de { $room }. Válido { $minutes } min.
notify-join-code-subject = O seu código: { $code }
outbox-kind-join_code = código de inscrição
