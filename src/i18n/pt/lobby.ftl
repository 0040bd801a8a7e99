## Ecrã do lobby (uma televisão na sala) e modo noturno

lobby-clock = Hora da sala
lobby-called = Chamados agora
lobby-called-table = para a mesa { $table }
lobby-calling-now = a sala está a chamar a lista.
lobby-calling = Há lugares livres: a sala está a chamar a lista.
lobby-waiting-more = e mais { $count }
lobby-page = Página { $page } de { $pages }

theme-light = Claro
theme-dark = Escuro (modo noturno)
theme-auto = Seguir cada dispositivo
theme-toggle = Modo noturno
theme-toggle-hint = Ecrã claro ou escuro neste dispositivo (fica guardado nele)
admin-room-theme = Tema dos ecrãs
admin-room-theme-hint = Para os tablets dos dealers, o quadro da sala e o ecrã do lobby; cada dispositivo pode mudá-lo com o botão Modo noturno. A seguir o dispositivo, o ecrã do lobby fica escuro.
# PT-2007 24: an interest list with enough players to start a game.
interest-ready = Já há jogadores para começar: a mesa abre em breve
