# Table-side rules (dealer tablet): buy-ins, minimum stay, absence, hands.

## Montantes (em cêntimos nos argumentos; a camada web formata-os)
rules-amount-not-positive = Indique um montante superior a zero.

## Cave ao sentar (BSOP 26, 37; PT-2007 28, 78)
rules-buyin-below-min = A cave mínima deste jogo é de { $min }.
rules-buyin-above-max = A cave máxima deste jogo é de { $max }.
rules-buyin-below-taken-off = Ao regressar ao mesmo jogo menos de uma hora depois de sair, o jogador tem de entrar com, pelo menos, os { $required } que retirou da mesa (BSOP 26).
rules-buyin-same-stack = Um jogador retirado por ausência que regresse dentro de uma hora volta com as mesmas fichas: exatamente { $required } (BSOP 37).
rules-buyin-average-capital = Ao entrar numa partida em curso, o jogador entra com a média do capital em jogo na mesa: exatamente { $required } (PT-2007 28).
rules-buyin-exact = A cave tem de ser exatamente de { $required }.

## Reposições (PT-2007 79)
rules-rebuy-above-max = Uma reposição não pode levar a cave acima do máximo de { $max }: agora, no máximo { $allowed }.
rules-rebuy-stack-at-max = A cave já está no máximo de { $max } ou acima dele: não é possível fazer uma reposição.
rules-chips-not-pending = Estas fichas chegaram ao lugar entre mãos: já estão em jogo (BSOP 28).
rules-chips-approved = Estas fichas já foram aprovadas para a mão (BSOP 28).
rules-chips-hand-over = A mão { $hand } já terminou: as fichas estão em jogo a partir de agora (BSOP 28).
tablet-chips-during-hand = Chegaram durante a mão (BSOP 28)
tablet-chips-next-hand = { $amount } a partir da próxima mão (BSOP 28)
tablet-chips-approved = { $amount } aprovadas para esta mão
floor-chips-pending = { $alias }: { $amount } em fichas pedidas antes da mão chegaram durante ela; só entram na próxima mão, salvo se as aprovar para esta (BSOP 28).
floor-chips-approve = Aprovar para esta mão

## Mudar de mesa com todas as fichas (BSOP 27)
rules-transfer-first-hour-above-max = As fichas do jogador ({ $stack }) excedem a cave máxima do jogo ({ $max }): não é permitida a mudança voluntária de mesa na primeira hora de jogo, que termina às { $until } (BSOP 27). { $minutes ->
    [one] Falta 1 minuto.
   *[other] Faltam { $minutes } minutos.
}

## Permanência mínima de quem está a ganhar (BSOP 38)
rules-min-stay = Um jogador a ganhar tem de ficar pelo menos { $stay } minutos numa mesa { $limit ->
    [high] High Limit
   *[mid] Mid Limit
} antes de sair (BSOP 38). { $minutes ->
    [one] Falta 1 minuto.
   *[other] Faltam { $minutes } minutos.
}

## Ausência (BSOP 36)
rules-absence-due-missed-bb = { $count ->
    [one] O jogador falhou a big blind:
   *[other] O jogador falhou a big blind { $count } vezes:
} as fichas podem ser retiradas da mesa e o lugar dado a outro jogador (BSOP 36).
rules-absence-due-away = O jogador está ausente há { $minutes } minutos ou mais: as fichas podem ser retiradas da mesa e o lugar dado a outro jogador (BSOP 36).

## Blinds em falta no regresso (BSOP 39, PT-2007 90)
rules-return-post-bb-or-wait = Blind em falta: pagar já a big blind ou esperar pela big blind. Paga fora de posição, não é um straddle (BSOP 39).
rules-return-pay-dead-small = Small blind em falta: paga-se morta nesta mão e não conta para as apostas do jogador (PT-2007 90).
rules-return-pay-dead-big = Big blind em falta: paga-se morta nesta mão e não conta para as apostas do jogador (PT-2007 90).
rules-return-pay-dead-both = Small blind e big blind em falta: pagam-se ambas mortas nesta mão e não contam para as apostas do jogador (PT-2007 90).

## Descanso e mãos sem apostar (PT-2007 13, 89)
rules-hands-resting = { $hands ->
    [0] A descansar: já não há mãos de descanso; o jogador tem de jogar a próxima mão (PT-2007 13).
    [one] A descansar: pode descansar mais 1 mão (PT-2007 13).
   *[other] A descansar: pode descansar mais { $hands } mãos (PT-2007 13).
}
rules-hands-post-bb = Cinco mãos sem apostar: o jogador tem de fazer uma grande aposta (big blind) na próxima mão, sem alterar a sequência das apostas (PT-2007 89).
rules-hands-leave-rested-too-long = Três mãos seguidas sem jogar: o jogador tem de abandonar a mesa (PT-2007 13).
rules-hands-leave-rested-repeatedly = Voltou a descansar sem ter apostado desde o último descanso: o jogador tem de abandonar a mesa (PT-2007 13).

# Cagnotte, rake, comissão
rules-cagnotte-session-percent = A percentagem por sessão tem de estar entre { $min } % e { $max } % (PT-2007 7b).
rules-cagnotte-mode-fixed = A modalidade da percentagem é fixada antes do início da partida; para a mudar, inicie uma nova partida (PT-2007 7).
rules-rake-negative = O pote e a percentagem não podem ser negativos.
rules-rake-no-flop-no-drop = Não há percentagem numa mão que terminou antes do flop sem aposta voluntária (PT-ONL 18).
rules-rake-over-pot = A percentagem não pode exceder o pote.
rules-rake-over-cap = No máximo { $max } de percentagem nesta mão: o limite por mão do jogo (PT-2007 7a).
rules-boards-range = Uma mão corre-se com 1 a { $max } boards (BSOP 90).
rules-boards-no-bet = Só se corre outro board com um jogador all-in: não numa mão que terminou antes do flop sem aposta (BSOP 90).
rules-boards-rake-missing = Uma mão corrida mais de uma vez paga a percentagem na mesma, uma só vez, sobre o pote inteiro: registe-a (no máximo { $max }) (BSOP 90).
rules-boards-pot-missing = Uma mão corrida mais de uma vez paga percentagem sobre o pote: indique o pote (BSOP 90).
cagnotte-boards = Boards
cagnotte-boards-hint = Corrida mais de uma vez (BSOP 90): percentagem uma só vez sobre o pote inteiro.
rules-rake-over-percent = No máximo { $max } de percentagem nesta mão: { $percent } % do pote, arredondado por baixo à menor ficha (PT-2007 7a, BSOP 80).

## O lugar espera por um jogador da mesa de mudança obrigatória (BSOP 57)
err-seat-waits-for-must-move = Este lugar espera por { $alias }, da mesa de mudança obrigatória (mesa { $table }, lugar { $seat }): quem passa da mesa de mudança obrigatória muda logo, de qualquer posição exceto a small blind ou o botão (BSOP 57), e { $alias } está { $position ->
    [button] no botão
   *[small_blind] na small blind
} agora, por isso muda depois desta mão. Entretanto o lugar não pode ir para a lista.

## Prazos julgados pelo relógio no momento da ação (PT-2007 24)
err-table-suspension-over = A mesa { $table } está suspensa há { $minutes } minutos sem que o mínimo de jogadores tenha voltado: o jogo terminou (PT-2007 24) e a mesa está a fechar, por isso ninguém é chamado, sentado nem tem lugar guardado nela.
