## O quadro da sala: a faixa de alarmes, os cabeçalhos das listas e as sugestões (BSOP 36, 44, 55, 58; PT-2007 24)
board-alarms = { $count ->
    [one] 1 alarme
   *[other] { $count } alarmes
}
board-alarms-label = Alarmes das mesas
board-call-late = { $alias }: chamada sem confirmação da mesa
board-count-waiting = { $alias }: { $amount } contadas, à espera da segunda contagem
board-closes-at = suspensa, fecha às { $time }
board-tile-requests = { $count ->
    [one] 1 pedido
   *[other] { $count } pedidos
}
board-tile-count = Contagem a confirmar
board-tile-chips = Fichas a aprovar
board-tile-session-up = Sessão terminada
board-tile-closes = Fecha às { $time }
board-more-tools = Mais
board-join-choose = Pôr em que lista?
board-game-free = { $count ->
    [0] nenhum lugar livre
    [one] 1 lugar livre
   *[other] { $count } lugares livres
}
board-game-free-title = Lugares livres nas mesas deste jogo em atividade (ninguém sentado, chamado nem com o lugar guardado)
board-suggest-must_move = → mesa { $table }: must move
board-suggest-must_move-why = BSOP 55: os lugares livres dos jogos principais vão para os jogadores da mesa must move, pela ordem da lista; um novo jogador senta-se na mesa must move.
board-suggest-main_game = → mesa { $table }: jogo principal
board-suggest-main_game-why = BSOP 55: os jogos principais têm mais lugares livres do que jogadores na mesa must move para os ocupar; um novo jogador senta-se no jogo principal com menos jogadores.
board-suggest-neediest = → mesa { $table }: a que mais precisa
board-suggest-neediest-why = BSOP 58: um novo jogador vai para a mesa que mais precisa de um jogador (a que tem menos; em empate, a mais antiga).
board-ready = Pronta a começar: abra uma mesa
board-ready-why = PT-2007 24: há jogadores à espera suficientes para começar este jogo.
board-ready-open = Abrir a mesa { $table }
board-ready-none = Não há mesa fechada deste jogo: atribua-lhe uma em Mesas.
