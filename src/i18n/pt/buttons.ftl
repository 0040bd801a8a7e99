# Os botões especiais Cucurucho e Macaca (BSOP 115, 116): definições do jogo, sorteios, o
# tablet, a sala, o relatório.

buttons-cucurucho = Cucurucho
buttons-macaca = Macaca
buttons-title = Botões especiais

## Recusas
err-buttons-contribution = { $rule }: a contribuição fixa de cada jogador é de { $min } a { $max } big blinds (não { $value }).
err-buttons-macaca-cap = { $rule }: o all-in da Macaca tem um limite de { $min } a { $max } big blinds (não { $value }).
err-buttons-banked = { $rule }: um jogo bancado não tem blinds nem botão do dealer, por isso não pode ter botões especiais.
err-buttons-table-state = { $rule }: o botão especial sorteia-se numa mesa aberta ou em jogo; a mesa { $table } não está.
err-buttons-off = { $rule }: o jogo «{ $game }» não tem este botão. Ative-o primeiro nas definições do jogo.
err-buttons-reason = { $rule }: o botão já está num lugar. Indique porque é sorteado de novo.
err-buttons-needs-players = { $rule }: o lugar inicial sorteia-se entre os jogadores sentados; são precisos pelo menos dois.
err-buttons-macaca-result-first = BSOP 116: a mão { $hand } é da Macaca. Registe o resultado dela (ganhou ou perdeu) antes da próxima mão.
err-buttons-hand-over = Esta mão especial já terminou: já não pode ser alterada.
err-buttons-not-macaca = Esta mão especial não é uma mão da Macaca.
err-buttons-collected-required = BSOP 116: a Macaca ganhou: indique quanto recebeu do pote.
err-buttons-lost-collects = BSOP 116: a Macaca perdeu: não recebe nada.
draw-no-seats = Não há lugares para sortear.

## O registo do sorteio
draw-kind-special_button = Botão especial (BSOP 115, 116)
draw-special-outcome-cucurucho = O Cucurucho começa no lugar { $seat }:
draw-special-outcome-macaca = A Macaca começa no lugar { $seat }:
draw-gets-cucurucho = Cucurucho: lugar { $seat }
draw-gets-macaca = Macaca: lugar { $seat }

## O registo de auditoria
action-table-special_draw = Botão especial sorteado (BSOP 115, 116)
action-table-special_hand = Mão especial (BSOP 115, 116)
action-table-special_contribution = Lugar incluído ou excluído de uma mão especial
action-table-macaca_result = Resultado da Macaca (BSOP 116)

## As definições do jogo
buttons-admin-legend = Botões especiais (BSOP 115, 116)
buttons-admin-hint = Botões extra cujo lugar inicial é sorteado em cada mesa; quando o botão do dealer chega a um deles, essa mão é o seu jogo especial e cada jogador põe um valor fixo. Desligados se não estiverem assinalados.
buttons-admin-contribution = Contribuição fixa ({ $rule }), em big blinds
buttons-admin-contribution-hint = De 3 a 5 big blinds por jogador.
buttons-admin-cucurucho-bb = Contribuição do Cucurucho (big blinds)
buttons-admin-macaca-bb = Contribuição da Macaca (big blinds)
buttons-admin-macaca-cap = Limite do all-in da Macaca (BSOP 116), em big blinds
buttons-admin-macaca-cap-hint = Normalmente 20. O que ela tiver acima disso fica para a próxima mão dela. De 10 a 50.

## O tablet
buttons-hand-title = Mão { $number }:
buttons-hand-cucurucho = Cucurucho!
buttons-hand-macaca = Macaca!
buttons-each-pot = Cada jogador põe { $amount } no pote.
buttons-each-macaca = Cada jogador põe { $amount } para a Macaca.
buttons-in-bb = { $count } big blinds
buttons-macaca-own-chips = A Macaca joga os { $amount } que guardou: desta vez ninguém põe nada.
buttons-not-in = fora desta mão
buttons-mark-out = Não entra
buttons-mark-in = Entra
buttons-players = { $count ->
    [one] 1 jogador entra
   *[other] { $count } jogadores entram
}
buttons-total = { $amount } no total
buttons-macaca-all-in = A Macaca está all-in com { $amount }.
buttons-macaca-aside = Ficam { $amount } de parte para a próxima mão dela.
buttons-macaca-won = A Macaca ganhou
buttons-macaca-lost = A Macaca perdeu
buttons-macaca-collected = Quanto recebeu (se ganhou)
buttons-macaca-collected-was = Recebeu { $amount }.
buttons-macaca-keeps = Guarda { $amount } para a próxima mão dela.
buttons-macaca-before-next = Registe o resultado da Macaca antes da próxima mão.
buttons-on-seat = no lugar { $seat }
buttons-not-drawn = ainda não sorteado
buttons-contribution = { $amount } por jogador
buttons-next-hand = joga na próxima mão
buttons-macaca-bank = A Macaca tem { $amount }
buttons-redraw-reason = Porquê sortear de novo?
buttons-redraw = Sortear de novo
buttons-draw = Sortear o lugar

## A sala
buttons-floor-draw = Sortear: { $button }
buttons-floor-reason = Motivo (para sortear de novo)

## O relatório
report-col-cucurucho-hands = Mãos de Cucurucho
report-col-cucurucho-contributions = Contribuições do Cucurucho
report-col-macaca-hands = Mãos de Macaca
report-col-macaca-contributions = Contribuições da Macaca
report-special = Mãos especiais (BSOP 115, 116)
report-special-note = Mãos jogadas como jogo especial e as contribuições fixas dos jogadores, por mesa (não contam as contribuições dos lugares que ficaram fora).
