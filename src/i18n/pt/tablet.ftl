# The dealer tablet: pairing, seat map, calls, actions.

tablet-pair-title = Emparelhar este tablet
tablet-pair-intro = Peça a um chefe de sala que emparelhe este tablet com a sua mesa, introduzindo este código em Sala → Tablets.
tablet-pair-code = Código de emparelhamento
tablet-pair-valid-until = O código é válido até às { $time }.
tablet-pair-waiting = À espera da sala… esta página avança sozinha.
tablet-table = Mesa { $number }
tablet-sign-out = Sair da conta
tablet-no-game = Sem jogo nesta mesa
tablet-calls = Chamadas para lugares
tablet-seat = Lugar { $seat }
tablet-call-source-list = da lista de espera
tablet-call-source-must_move = mudança obrigatória
tablet-call-source-seat_change = troca de lugar
tablet-ack = Confirmar receção
tablet-arrived = Jogador chegou: sentar
tablet-since = desde as { $time }
tablet-free = livre
floor-call-acked = Recebida
floor-call-acked-hint = O croupier confirmou a chamada no tablet da mesa.
floor-call-escalated = Sem confirmação
floor-call-escalated-hint = A mesa não confirmou esta chamada a tempo: fale com o croupier.
floor-tablets = Tablets
tablets-title = Tablets dos croupiers
tablets-pair = Emparelhar um tablet
tablets-pair-help = Abra /tablet no tablet: aparece um código de seis caracteres. Introduza-o aqui com a mesa.
tablets-code = Código mostrado no tablet
tablets-table = Mesa
tablets-label = Nome
tablets-pair-action = Emparelhar
tablets-paired = Tablet «{ $label }» emparelhado.
tablets-paired-list = Tablets emparelhados
tablets-none = Nenhum tablet emparelhado.
tablets-paired-at = Emparelhado
tablets-last-seen = Visto pela última vez
tablets-revoke = Revogar
err-pairing-code-format = O código tem { $len } letras e algarismos.
err-pairing-code-unknown = Nenhum tablet mostra este código. Verifique o código no tablet.
err-pairing-code-used = Este código já foi usado. Recarregue o tablet para obter outro.
err-pairing-code-expired = Este código expirou. Recarregue o tablet para obter outro.
err-pairing-expired = O código de emparelhamento expirou; é mostrado um novo.
err-tablet-revoked = Este tablet foi revogado.
err-tablet-not-paired = Este dispositivo não é um tablet emparelhado. Abra /tablet para o emparelhar.

## Ferramentas da mesa
tablet-hands-today = { $count ->
    [one] 1 mão nas últimas 24 h
   *[other] { $count } mãos nas últimas 24 h
}
tablet-new-hand = Nova mão
tablet-service-floor = Chamar o floor
tablet-service-chips = Fichas
tablet-service-decision = Decisão
tablet-service-sent = enviado
tablet-buyin-required = Cave exigida:
tablet-buyin-exactly = exatamente { $amount }
tablet-buyin-at-least = pelo menos { $amount }
tablet-buyin-amount = Valor da cave
tablet-seat-with-buyin = Sentar com esta cave

## Lugares
tablet-bought-in = comprou { $amount }
tablet-away = Ausente
tablet-removal-due = Fichas a retirar
tablet-removal-counting = Retirada em contagem
tablet-missed-blind-button = Botão de blind perdido
tablet-missed-blind-short = Blind perdido
tablet-absence-button = Botão de ausência
tablet-absence-short = Ausência
tablet-resting = A descansar
tablet-no-bet = Sem aposta nesta mão
tablet-rebuy-needed = Reposição necessária
tablet-rebuy-needed-help = A cave está abaixo do mínimo da mesa: o jogador tem de fazer uma reposição para continuar em jogo (PT-2007 79).
tablet-protected = Botão / small blind
tablet-sat-at = Sentado às
tablet-stack = Fichas
tablet-total-bought-in = Total comprado
tablet-min-stay-until = A ganhar: pode sair às

## Ações no lugar
tablet-presence = Na mesa
tablet-mark-away = Jogador ausente
tablet-back = Jogador regressou
tablet-away-since = Ausente desde as { $time }
tablet-removal-in = fichas retiráveis dentro de
tablet-missed-small = Perdeu o small blind
tablet-missed-big = Perdeu o big blind
tablet-missed-counts = Small blinds perdidos: { $sb }
tablet-missed-counts-bb = big blinds perdidos: { $bb }
tablet-blinds-settled = Blinds perdidos regularizados
tablet-extend = Prorrogar a ausência
tablet-extend-minutes = Minutos
tablet-extend-reason = Motivo
tablet-hand = Esta mão
tablet-hand-help = Marque quem descansa, ou quem não apostou nesta mão, antes de tocar em “Nova mão”.
tablet-buyin = Cave
tablet-rebuy = Reposição
tablet-stack-now = Fichas agora
tablet-amount = Valor
tablet-stack-counted = Fichas contadas
tablet-count = Guardar a contagem
tablet-cash-out = Sair da mesa
tablet-cash-out-action = Trocar fichas e sair
tablet-override-reason = Motivo da exceção (floor)
tablet-change-table = Mudar de mesa com as fichas
tablet-change-table-action = Mudar de mesa
tablet-cave-lost = O jogador perdeu toda a cave (PT-2007 26)

## Retirada de fichas (BSOP 36)
tablet-removal-help = Conte as fichas, indique onde ficam guardadas; depois outro membro da equipa conta de novo e confirma.
tablet-removal-amount = Valor contado
tablet-removal-storage = Guardadas em (caixa, rack, cofre)
tablet-removal-start = Retirar as fichas
tablet-removal-confirm = Segunda contagem
tablet-removal-counted = Primeira contagem: { $amount }
tablet-removal-storage-was = guardadas em { $storage }
tablet-removal-second-help = Outro membro da equipa conta as fichas e assina aqui (ou um floor confirma na página de custódia).
tablet-second-username = Segundo membro: utilizador
tablet-second-password = Palavra-passe
tablet-removal-confirm-action = Confirmar e libertar o lugar
tablet-removal-cancel = Anular a contagem

## Custódia (floor)
custody-title = Fichas em custódia
custody-intro = Fichas retiradas das mesas por ausência (BSOP 36), contadas por dois membros da equipa, até o jogador as reclamar ou a caixa as liquidar.
custody-none = Não há fichas em custódia.
custody-when = Contadas
custody-player = Jogador
custody-amount = Valor
custody-storage = Guardadas em
custody-state = Estado
custody-state-counting = À espera da segunda contagem
custody-state-held = Em custódia
custody-state-reclaimed = Reclamadas
custody-state-settled = Liquidadas
custody-state-cancelled = Anulada
custody-recount = Valor
custody-confirm = Confirmar contagem
custody-reclaimed = Reclamadas pelo jogador
custody-settled = Liquidadas
custody-note = Nota

## Recusas
err-amount-negative = O valor não pode ser negativo.
err-buyin-required = Indique o valor da cave.
err-already-away = O jogador já está marcado como ausente.
err-not-away = O jogador não está marcado como ausente.
err-still-away = O jogador ainda está ausente: marque primeiro o regresso.
err-override-floor-only = Só um floor pode abrir exceção ao tempo mínimo.
err-extend-floor-only = Só um floor pode prorrogar uma ausência.
err-removal-not-due = As fichas ainda não podem ser retiradas (BSOP 36): { $minutes ->
    [one] falta 1 minuto.
   *[other] faltam { $minutes } minutos.
}
err-removal-pending = Já há uma contagem destas fichas à espera de confirmação.
err-custody-not-counting = Esta contagem já não está à espera de confirmação.
err-custody-same-staff = A segunda contagem tem de ser feita por outro membro da equipa.
err-custody-amount-differs = As contagens diferem ({ $first } e { $second }): contem de novo.
err-custody-not-held = Estas fichas já não estão em custódia.
err-custody-how = Escolha reclamadas ou liquidadas.
err-table-not-running = A mesa não está em jogo.
err-service-kind = Escolha floor ou fichas (uma decisão pede-se com «Pedir decisão»).
err-blind-kind = Escolha o small ou o big blind.

## Alertas no painel do floor
floor-alerts = Alertas das mesas
floor-alert-table = Mesa { $table }
floor-service-handled = Tratado
floor-removal-due-time = ausente há demasiado tempo: as fichas podem ser retiradas (BSOP 36).
floor-removal-due-blinds = perdeu o big blind duas vezes: as fichas podem ser retiradas (BSOP 36).
tablet-move-due-table = Muda agora para a mesa { $table }
tablet-must-move-table = Mesa must-move

## Registo de auditoria: ações na mesa
action-seat-call_ack = Chamada confirmada na mesa
action-seat-call_escalated = Chamada não confirmada a tempo (escalada)
action-tablet-pair = Tablet emparelhado com uma mesa
action-tablet-revoke = Tablet revogado
action-seat-buyin = Cave
action-seat-rebuy = Reposição (PT-2007 79)
action-seat-count = Fichas contadas
action-seat-cash_out = Saiu com as fichas
action-seat-min_stay_override = Tempo mínimo dispensado pelo floor (BSOP 38)
action-seat-transfer_stack = Mudou de mesa com as fichas (BSOP 27)
action-seat-chips_approved = Fichas aprovadas para a mão em curso (BSOP 28)
action-table-macaca_closed = A mesa fechou com fichas da Macaca por liquidar (BSOP 116)
action-seat-away = Marcado ausente (BSOP 36)
action-seat-back = Regressou à mesa
action-seat-missed_blind = Perdeu um blind (BSOP 36)
action-seat-blinds_settled = Blinds perdidos regularizados (BSOP 39, PT-2007 90)
action-seat-absence_extended = Ausência prorrogada pelo floor (BSOP 36)
action-seat-removal_due = Fichas a retirar (BSOP 36)
action-seat-hand_flags = Descanso / sem aposta marcado
action-custody-count = Fichas contadas para retirada (primeira contagem)
action-custody-held = Fichas em custódia (segunda contagem)
action-custody-cancelled = Contagem de retirada anulada
action-custody-reclaimed = Fichas reclamadas da custódia
action-custody-settled = Fichas em custódia liquidadas
action-table-hand = Nova mão
action-service-request = Pedido ao floor
action-service-handled = Pedido tratado

# Mensagens do floor para o tablet de uma mesa
messages-title = Mensagens às mesas
messages-help = Uma mensagem fica no tablet da mesa até o dealer tocar em "Visto". Aqui vê quem a viu e quando.
messages-no-tablet = Ainda nenhuma mesa tem tablet emparelhado: emparelhe um acima para lhe enviar mensagens.
messages-body = Mensagem
messages-send = Enviar para o tablet
messages-sent = Mensagem enviada para a mesa { $table }.
messages-sent-at = Enviada
messages-from = De
messages-seen = Vista
messages-not-seen = Ainda não vista
messages-from-floor = Do floor
messages-mark-seen = Visto
err-message-no-tablet = A mesa { $table } não tem tablet emparelhado: ninguém veria a mensagem. Emparelhe primeiro um tablet com ela.
action-message-sent = Mensagem para uma mesa
action-message-seen = Mensagem vista pelo dealer
tablet-sign-out-confirm = Toque de novo para sair da conta
tablet-live-stale = Este lugar mudou enquanto escrevia: o que escreveu foi mantido.
tablet-live-reload = Ver o mais recente
tablet-pair-qr-alt = Código QR: abre o formulário de emparelhamento do floor com este código
tablet-pair-qr-help = Ou leia-o com o telemóvel de um responsável de sala: abre o formulário de emparelhamento com o código preenchido.

## Cagnotte at the table
err-hand-none-to-record = Ainda não se jogou nenhuma mão nesta mesa: não há pote nem percentagem a registar.
rules-rake-session-game = A cagnotte deste jogo é cobrada por sessão: não se retira percentagem do pote (PT-2007 7).
rules-cagnotte-over-due = No máximo { $max }: é o que este jogador deve pela sessão (PT-2007 7b).
err-session-closed = Esta sessão já foi encerrada.
err-session-none = Não há nenhuma sessão de cagnotte aberta nesta mesa.
err-session-hour-not-up = A hora de jogo ainda não terminou: a sessão não pode ser encerrada (PT-2007 7b).
err-due-settled = Este valor já foi cobrado ou isentado.
err-due-player-left = O jogador já não está sentado nesta mesa: a percentagem não pode ser retirada das suas fichas. Não cobrado — o floor pode isentá-la, com um motivo.
err-reason-required = Indique um motivo.
err-shift-none = Não há nenhum turno de croupier aberto nesta mesa.
err-commission-not-thirteen = A comissão sobre o prémio só se cobra no jogo de 13 cartas (MO-13 11).
err-player-not-seated-here = Este jogador não está sentado nesta mesa.
action-cagnotte-session_start = Sessão de cagnotte iniciada
action-cagnotte-session_close = Sessão de cagnotte encerrada
action-cagnotte-due = Cagnotte devida
action-cagnotte-due_cave = Cagnotte devida fixada pela cave
action-cagnotte-collected = Cagnotte cobrada
action-cagnotte-exempt = Cagnotte isentada
action-cagnotte-rake = Pote e percentagem registados
action-cagnotte-tip = Gorjeta registada
action-cagnotte-drop = Caixa de drop registada
action-cagnotte-commission = Comissão registada
action-shift-start = Turno de croupier iniciado
action-shift-end = Turno de croupier terminado
cagnotte-title = Cagnotte
cagnotte-session = Sessão de cagnotte { $number }
cagnotte-session-since = desde as { $time }
cagnotte-hour-up = Hora cumprida: a próxima mão terminada encerra a sessão
cagnotte-hour-up-at = a hora termina às { $time }
cagnotte-paused = Suspensa: a hora está parada
cagnotte-to-collect = A cobrar: { $amount }
cagnotte-late = sentou-se depois
cagnotte-collect = Cobrar
cagnotte-state-due = Em dívida
cagnotte-state-collected = Cobrado
cagnotte-state-exempt = Isento
cagnotte-pot = Pote
cagnotte-rake = Percentagem
cagnotte-no-flop = Sem flop, sem aposta
cagnotte-seat-due = Deve { $amount }
shift-title = Turno do croupier
shift-tip-amount = Gorjetas
shift-record-tip = Registar gorjetas
shift-payout = Prémio do vencedor
shift-record-commission = Registar comissão de 2 %
shift-drop-amount = Total da caixa de drop
shift-drop-and-end = Registar a caixa de drop e terminar o turno
shift-end = Terminar o meu turno
floor-cagnotte-title = Cagnotte
floor-cagnotte-intro = A sessão de cagnotte de cada mesa (PT-2007 7b: uma hora de jogo mais a mão em curso; quem se sentar até 30 minutos depois do início também paga), o que ainda está em dívida e as isenções com motivo.
floor-cagnotte-open-dues = Por cobrar
floor-cagnotte-no-dues = Não há nada por cobrar.
floor-cagnotte-sessions = Sessões abertas
floor-cagnotte-no-sessions = Nenhuma mesa tem uma sessão de cagnotte aberta.
floor-cagnotte-table = Mesa
floor-cagnotte-table-n = Mesa { $table }
floor-cagnotte-seat = Lugar
floor-cagnotte-player = Jogador
floor-cagnotte-amount = Valor
floor-cagnotte-due-at = Devido desde
floor-cagnotte-state = Estado
floor-cagnotte-reason = Motivo da isenção
floor-cagnotte-exempt = Isentar
floor-cagnotte-close = Encerrar a sessão
floor-session-up = A hora de jogo da sessão de cagnotte terminou: a próxima mão terminada encerra-a, ou encerre-a aqui (PT-2007 7b).
floor-dues-late = { $count ->
    [one] Uma cagnotte de sessão espera há mais de 15 minutos para ser cobrada.
   *[other] { $count } cagnottes de sessão esperam há mais de 15 minutos para ser cobradas.
}
err-hand-below-minimum = Não se pode dar uma mão: um jogo não pode começar nem continuar com menos de { $min } jogadores (PT-2007 24), e { $seated ->
    [one] só há uma pessoa sentada
   *[other] há { $seated } pessoas sentadas
}.
# registration
tablet-button = Botão
tablet-small-blind = Small blind
# kiosk
kiosks-title = Quiosques da receção
kiosks-help = Um tablet na receção onde quem chega se inscreve nas listas de espera sem ajuda (o telemóvel, as listas, um código enviado para o telemóvel). Emparelhe-o com o código acima, escolhendo “Quiosque da receção” em vez de uma mesa.
kiosks-none = Nenhum quiosque da receção está emparelhado.
kiosks-pair-choice = Quiosque da receção (sem mesa)
action-kiosk-pair = Tablet emparelhado como quiosque da receção
action-kiosk-revoke = Quiosque da receção revogado
err-kiosk-not-paired = Este aparelho não é um quiosque da receção emparelhado. Peça à equipa de sala que o emparelhe em Sala → Tablets (abra /tablet nele para ver o código).
err-kiosk-revoked = Este quiosque da receção foi revogado.
err-pairing-kiosk = Este código foi emparelhado como quiosque da receção: abra /tablet no navegador do quiosque.
err-kiosk-pref-expired = Este ecrã expirou. Toque em “Concluir” e comece de novo.
kiosk-title = Inscrever-se numa lista de espera
kiosk-language = Idioma
kiosk-cancel = Cancelar
kiosk-start-title = Inscrever-se numa lista de espera
kiosk-start-lead = Escreva o seu número de telemóvel e escolha as suas listas: um código enviado para o telemóvel confirma que o número é seu.
kiosk-next = Seguinte
kiosk-private = Nada do que escreve fica neste ecrã: apaga-se sozinho ao fim de pouco tempo, ou quando toca em “Concluir”.
kiosk-on-lists = { $count ->
    [one] Está na lista
   *[other] Está nas listas
}
kiosk-place = lugar { $place }
kiosk-pref-open = Preferência de lugar (opcional)
kiosk-pref-saved = A sua preferência de lugar foi guardada
kiosk-done = Concluir
