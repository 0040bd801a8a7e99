## O quadro da sala: a faixa de alarmes, os cabeçalhos das listas e as sugestões (BSOP 36, 44, 55, 58; PT-2007 24)
board2-alarms = { $count ->
    [one] 1 alarme
   *[other] { $count } alarmes
}
board2-alarms-label = Alarmes das mesas
board2-call-late = { $alias }: chamada sem confirmação da mesa
board2-count-waiting = { $alias }: { $amount } contadas, à espera da segunda contagem
board2-closes-at = suspensa, fecha às { $time }
board2-tile-requests = { $count ->
    [one] 1 pedido
   *[other] { $count } pedidos
}
board2-tile-count = Contagem a confirmar
board2-tile-chips = Fichas a aprovar
board2-tile-session-up = Sessão terminada
board2-tile-closes = Fecha às { $time }
board2-more-tools = Mais
board2-join-choose = Pôr em que lista?
board2-game-free = { $count ->
    [0] nenhum lugar livre
    [one] 1 lugar livre
   *[other] { $count } lugares livres
}
board2-game-free-title = Lugares livres nas mesas deste jogo em atividade (ninguém sentado, chamado nem com o lugar guardado)
board2-suggest-must_move = → mesa { $table }: must move
board2-suggest-must_move-why = BSOP 55: os lugares livres dos jogos principais vão para os jogadores da mesa must move, pela ordem da lista; um novo jogador senta-se na mesa must move.
board2-suggest-main_game = → mesa { $table }: jogo principal
board2-suggest-main_game-why = BSOP 55: os jogos principais têm mais lugares livres do que jogadores na mesa must move para os ocupar; um novo jogador senta-se no jogo principal com menos jogadores.
board2-suggest-neediest = → mesa { $table }: a que mais precisa
board2-suggest-neediest-why = BSOP 58: um novo jogador vai para a mesa que mais precisa de um jogador (a que tem menos; em empate, a mais antiga).
board2-ready = Pronta a começar: abra uma mesa
board2-ready-why = PT-2007 24: há jogadores à espera suficientes para começar este jogo.
board2-ready-open = Abrir a mesa { $table }
board2-ready-none = Não há mesa fechada deste jogo: atribua-lhe uma em Mesas.
