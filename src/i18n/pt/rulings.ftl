# As decisões do floor, os potes retidos e o registo de ocorrências (BSOP 16-22).

## Pedir (o tablet, o painel do floor)
ruling-ask = Pedir decisão
ruling-ask-title = Pedir uma decisão ao floor
ruling-ask-intro = Chame o floor logo que o erro acontece (BSOP 18): a decisão tem de ser pedida antes de começar a mão seguinte, antes de a mesa ser desfeita ou de um jogador envolvido mudar de mesa; caso contrário, o resultado da mão mantém-se (BSOP 19).
ruling-new-title = Abrir um pedido de decisão na mesa { $table }
ruling-hand = Mão
ruling-hand-in-play = Mão n.º { $hand } (em jogo)
ruling-hand-previous = Mão n.º { $hand } (a anterior: fora de prazo, BSOP 19)
ruling-no-hand = Ainda não se deu nenhuma mão nesta mesa.
ruling-seats = Lugares envolvidos
ruling-no-seats = Não há ninguém sentado.
ruling-note = O que aconteceu
ruling-note-hint = Poucas palavras, p. ex. «pote dado ao lugar 3; o lugar 7 mostrou a melhor mão».
ruling-send = Pedir a decisão
ruling-back = Voltar à mesa
ruling-asked-flash = Decisão n.º { $id } pedida: o floor já a vê.

## Uma decisão
ruling-title = Decisão n.º { $id }
ruling-state-open = À espera do floor
ruling-state-decided = Decidida
ruling-late-short = Fora de prazo (BSOP 19)
ruling-late-next_hand = Pedida depois de começar a mão seguinte (BSOP 19)
ruling-late-table_broken = Pedida depois de a mesa ser desfeita (BSOP 19)
ruling-late-player_moved = Pedida depois de um jogador envolvido mudar de mesa (BSOP 19)
ruling-late-player_left = Pedida depois de um jogador envolvido sair da mesa (BSOP 19)
ruling-in-time = Pedida dentro do prazo (BSOP 19)
ruling-hand-no = mão n.º { $hand }
ruling-seats-short = lugares { $seats }
ruling-table = Mesa
ruling-game = Jogo
ruling-players = Jogadores envolvidos
ruling-players-none = Nenhum jogador indicado.
ruling-asked = Pedida
ruling-asked-by = { $time } por { $name }
ruling-decided = Decidida
ruling-decision = Decisão
ruling-rule = Regra aplicada
ruling-final = A decisão é final (BSOP 16, 17): nunca se altera; só pode ser corrigida por uma decisão posterior que a indique.
ruling-result = Resultado da mão
ruling-result-stands = O resultado da mão mantém-se (BSOP 19).
ruling-result-overridden = O resultado da mão não se mantém: { $reason }
ruling-result-stands-short = mantém-se
ruling-result-overridden-short = alterado
ruling-corrected-by = Corrigida pela n.º { $id }
ruling-corrects = Corrige a n.º { $id }
ruling-open-page = Abrir
ruling-answer = Responder

## Pote retido (BSOP 21)
ruling-pot = Pote retido
ruling-pot-line = { $amount } retidos desde as { $time } ({ $storage })
ruling-pot-released-at = libertado às { $time }
ruling-pot-state-held = Retido
ruling-pot-state-released = Libertado
ruling-hold-title = Reter o pote (BSOP 21)
ruling-hold-hint = Enquanto a decisão estiver pendente (imagens de vigilância, o gerente), o pote, ou parte dele, pode ser retirado da mesa. No máximo as fichas registadas na mesa: { $amount }.
ruling-hold-amount = Valor retido
ruling-hold-storage = Onde fica guardado
ruling-window = Prazo
ruling-hold-none = Ainda não há fichas registadas nesta mesa (o croupier conta as fichas no tablet), por isso não se pode reter nenhum pote.
ruling-hold-send = Reter o pote

## O formulário da decisão
ruling-decide-title = A decisão
ruling-decision-hint = O que o floor decidiu, tal como será lido depois pelos jogadores e pelo regulador.
ruling-rule-hint = p. ex. BSOP 20, TDA 42
ruling-add-players = Indicar outros jogadores envolvidos
ruling-override = Alterar: o resultado da mão não se mantém (BSOP 16)
ruling-override-reason = Motivo da alteração
ruling-release-title = Entrega do pote retido ({ $amount }) a
ruling-release-hint = As partes têm de somar o pote retido (BSOP 21).
ruling-reconstruction-title = Reconstituir o pote (BSOP 20)
ruling-reconstruction-hint = Passa um valor dos jogadores indicados para o jogador certo; as fichas registadas mudam quando um segundo membro da equipa confirmar.
ruling-reconstruction-late = Esta decisão foi pedida fora de prazo: não se pode reconstituir nenhum pote (BSOP 20).
ruling-reconstruction-to = O jogador certo
ruling-reconstruction-none = — nenhum —
ruling-reconstruction-from = Retirado de
ruling-stack = fichas { $amount }
ruling-decide-send = Registar a decisão
ruling-correct-title = Corrigir esta decisão
ruling-correct-hint = Uma correção é uma nova decisão que indica a n.º { $id }; esta decisão fica como está, marcada como corrigida.
ruling-correct-send = Registar a correção

## Fichas movidas pela decisão (dois membros da equipa)
ruling-chips = Fichas movidas pela decisão
ruling-chips-recorded = À espera de um segundo membro da equipa
ruling-chips-confirmed = Movidas
ruling-chips-cancelled = Recusadas: não movidas
ruling-chips-recorded-by = Registadas por { $name }
ruling-chips-confirmed-by = Confirmadas por { $name }
ruling-chips-cancelled-by = Recusadas por { $name }: o floor corrige a decisão com os valores certos.
ruling-chips-second = Um segundo membro da equipa, que não as registou, confirma as fichas.
ruling-line-release = { $amount } do pote retido para { $to }
ruling-line-reconstruction = { $amount } de { $from } para { $to }
ruling-confirm = Confirmar (segunda pessoa)
ruling-refuse = Recusar

## BSOP 22
ruling-earlier-title = Decisões anteriores destes jogadores (BSOP 22)
ruling-earlier-hint = O histórico de um jogador pode servir para avaliar a intenção.
ruling-earlier-none = Nenhuma decisão anterior os envolve.

## O painel do floor e o tablet
ruling-alert = Decisão n.º { $id }
ruling-alert-chips = Decisão n.º { $id }: fichas a confirmar por um segundo membro da equipa
board-rulings = { $count ->
    [one] 1 decisão
   *[other] { $count } decisões
}
ruling-open-at-table = Abrir pedido de decisão
tablet-rulings = Decisões

## O registo de ocorrências
ruling-log-title = Registo de ocorrências
ruling-log-intro = Todas as decisões do floor (BSOP 16-22): a mesa, a mão, quem pediu, o que se decidiu e quem decidiu. A decisão é final; uma correção é uma decisão posterior que a indica.
ruling-nav = Decisões
ruling-filter-day = Dia de jogo
ruling-filter-table = Mesa
ruling-filter-player = N.º do jogador
ruling-filter-staff = Membro da equipa
ruling-filter-state = Estado
ruling-filter-any = Todos
ruling-filter-apply = Mostrar
ruling-csv = Descarregar CSV
ruling-none = Nenhuma decisão corresponde.
ruling-count = { $count ->
    [one] 1 decisão
   *[other] { $count } decisões
}
ruling-player-title = Decisões

## Colunas do CSV
ruling-col-id = N.º da decisão
ruling-col-asked-at = Pedida em
ruling-col-table = Mesa
ruling-col-game = Jogo
ruling-col-hand = Mão
ruling-col-seats = Lugares
ruling-col-players = Jogadores
ruling-col-note = Nota
ruling-col-asked-by = Pedida por
ruling-col-late = Fora de prazo (BSOP 19)
ruling-col-state = Estado
ruling-col-decision = Decisão
ruling-col-rule = Regra
ruling-col-result = Resultado da mão
ruling-col-override-reason = Motivo da alteração
ruling-col-decided-at = Decidida em
ruling-col-decided-by = Decidida por
ruling-col-corrects = Corrige
ruling-col-corrected-by = Corrigida por
ruling-col-pot = Pote retido
ruling-col-pot-storage = Pote guardado em
ruling-col-chips = Fichas movidas

## Recusas
err-ruling-not-late = BSOP 19: esta decisão foi pedida dentro do prazo; não há resultado mantido para alterar.
err-ruling-override-reason = BSOP 19: indique o motivo para alterar o resultado da mão.
err-ruling-pot-positive = BSOP 21: o pote retido tem de ser superior a zero.
err-ruling-pot-over-table = BSOP 21: o pote retido não pode exceder as fichas registadas na mesa ({ $max }).
err-ruling-release-required = BSOP 21: o pote retido ({ $amount }) tem de ser entregue com a decisão: indique a parte de cada jogador.
err-ruling-too-many-lines = No máximo { $max } linhas.
err-ruling-share-positive = Cada valor tem de ser superior a zero.
err-ruling-player-twice = Há um jogador indicado duas vezes.
err-ruling-release-sum = BSOP 21: as partes têm de somar exatamente o pote retido ({ $amount }).
err-ruling-release-player = BSOP 21: { $player } não está nesta mesa nem está envolvido na decisão.
err-ruling-no-pot = Não há nenhum pote retido para esta decisão.
err-ruling-reconstruction-late = BSOP 20: { $why ->
    [next_hand] a decisão foi pedida depois de começar a mão seguinte
    [table_broken] a decisão foi pedida depois de a mesa ser desfeita
    [player_moved] a decisão foi pedida depois de um jogador envolvido mudar de mesa
   *[other] a decisão foi pedida depois de um jogador envolvido sair da mesa
}, por isso não se pode reconstituir o pote; o resultado da mão mantém-se (BSOP 19).
err-ruling-pot-late = BSOP 19: { $why ->
    [next_hand] a decisão foi pedida depois de começar a mão seguinte
    [table_broken] a decisão foi pedida depois de a mesa ser desfeita
    [player_moved] a decisão foi pedida depois de um jogador envolvido mudar de mesa
   *[other] a decisão foi pedida depois de um jogador envolvido sair
}: o resultado da mão mantém-se, por isso não se retira nenhum pote para ela (BSOP 21).
err-ruling-reconstruction-no-to = BSOP 20: escolha o jogador certo a quem vai o valor.
err-ruling-reconstruction-empty = BSOP 20: indique de que jogador(es) se retira o valor.
err-ruling-reconstruction-self = BSOP 20: o jogador certo não pode ser também quem dá o valor.
err-ruling-over-stack = BSOP 20: mais do que as fichas registadas de { $player } ({ $stack }).
err-ruling-over-stack-max = BSOP 20: as fichas do jogador certo passariam de { $max }.
err-ruling-not-seated = BSOP 20: { $player } não está sentado nesta mesa.
err-ruling-same-staff = As fichas movidas por uma decisão são confirmadas por um segundo membro da equipa, diferente.
err-ruling-decision-required = Escreva a decisão por extenso: a decisão é definitiva e fica registada como escrita (BSOP 17).
err-ruling-storage-required = Indique onde fica guardado o pote até ser libertado (BSOP 21).
err-ruling-seat = O lugar { $seat } não existe nesta mesa (1 a { $max }).
err-ruling-too-many-seats = No máximo { $max } lugares.
err-ruling-seat-empty = Não há ninguém sentado no lugar { $seat }.
err-ruling-seat-empty-hand = Não havia ninguém no lugar { $seat } quando começou a mão n.º { $hand }.
err-ruling-hand-unknown = Esta mesa não tem a mão n.º { $hand }.
err-ruling-player-unknown = Não existe o jogador n.º { $player }.
err-ruling-too-many-players = No máximo { $max } jogadores.
err-ruling-decided = A decisão n.º { $id } já foi tomada e é final (BSOP 17): corrija-a com uma nova decisão que a indique.
err-ruling-correct-open = A decisão n.º { $id } ainda está por tomar: decida-a.
err-ruling-corrected = A decisão n.º { $id } já foi corrigida pela n.º { $by }: corrija essa.
err-ruling-corrected-now = A decisão n.º { $id } foi corrigida entretanto.
err-ruling-move-pending = As fichas da decisão n.º { $id } esperam por um segundo membro da equipa: confirme-as ou recuse-as primeiro.
err-ruling-pot-decided = BSOP 21: só se retém um pote enquanto a decisão está pendente; a decisão n.º { $id } já foi tomada.
err-ruling-pot-held = Já há um pote retido para a decisão n.º { $id }.
err-ruling-no-move = A decisão n.º { $id } não move fichas.
err-ruling-move-done = As fichas da decisão n.º { $id } já não esperam confirmação.
err-ruling-move-left = { $player } já não está na mesa: corrija a decisão.
err-ruling-move-over-stack = { $player } tem agora { $stack } registados, menos do que a reconstituição retira: corrija a decisão.
err-ruling-move-over-stack-max = As fichas de { $player } passariam de { $max }.
err-ruling-filter-day = «{ $value }» não é uma data (AAAA-MM-DD).
err-ruling-filter-number = «{ $value }» não é um número.
err-ruling-filter-state = «{ $value }»: escolha open (por decidir) ou decided (decidida).
err-ruling-filter-limit = Entre 1 e { $max }.

## Registo de auditoria
action-ruling-ask = Decisão pedida (BSOP 19)
action-ruling-pot_held = Pote retido (BSOP 21)
action-ruling-decide = Decisão tomada (BSOP 17)
action-ruling-correct = Decisão corrigida por uma decisão posterior (BSOP 17)
action-ruling-move_confirm = Fichas de uma decisão movidas (segundo membro da equipa)
action-ruling-move_cancel = Fichas de uma decisão recusadas
admin-audit-kind-ruling = Decisão
