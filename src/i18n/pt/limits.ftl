# Os limites de uma mesa em jogo (PT-2007 22, BSOP 34; services::limits).
limits-title = Limites
limits-table = Mesa { $table }
limits-small-blind = Small blind
limits-big-blind = Big blind
limits-buy-in-min = Cave mínima
limits-buy-in-max = Cave máxima
limits-buy-in-range = cave { $min } – { $max }
limits-buy-in-from = cave a partir de { $min }
limits-from-next-hand = a partir da próxima mão
limits-from-time = a partir das { $time }
limits-badge = Novos limites
# O painel da mesa no quadro do floor.
limits-change = Alterar limites
limits-effective = Quando
limits-opt-next-hand = A partir da próxima mão
limits-opt-at = A partir das
limits-time = Hora (relógio da sala)
limits-approve = Aprovar a alteração
limits-pending = Alteração aprovada
limits-cancel = Cancelar a alteração
limits-announced-short = anunciada na mesa
limits-not-announced = ainda não anunciada na mesa
limits-done-approved = Novos limites aprovados para a mesa { $table }: o dealer anuncia-os e entram em vigor na primeira mão devida.
limits-done-applied = Novos limites em vigor na mesa { $table } de imediato: não há ninguém sentado, ninguém a avisar.
limits-done-cancelled = A alteração de limites da mesa { $table } foi cancelada: a mesa mantém os seus limites.
# O tablet do dealer.
limits-tablet-title = Novos limites aprovados pelo floor
limits-announce-hint = Anuncie-os aos jogadores e confirme.
limits-announce = Anunciado aos jogadores
limits-announced-at = Anunciado às { $time }
limits-waits-hand = entram em vigor quando começar a próxima mão
limits-waits-time = entram em vigor na primeira mão iniciada depois das { $time }
# A página do jogador.
limits-player-notice = Novos limites na sua mesa
# A página do jogo (administração).
limits-game-pending = As mesas deste jogo em funcionamento mantêm os seus limites até a alteração ser anunciada na mesa e começar a mão seguinte:
# Relatórios.
limits-report-title = Horas por limite
limits-col-tables = Mesas
limits-col-hours = Horas abertas
limits-report-note = O tempo de abertura de cada mesa (enquanto alguém lá está sentado) é dividido no momento em que os seus limites mudaram (PT-2007 22).
# Recusas.
limits-err-bb-below-sb = A big blind não pode ser inferior à small blind (PT-2007 22: limites que a mesa possa jogar).
limits-err-max-below-min = A cave máxima não pode ser inferior à mínima (BSOP 24).
limits-err-needs-max = Este jogo cobra a percentagem por sessão sobre o máximo da mesa (PT-2007 7b): a mesa tem de manter uma cave máxima.
limits-err-chip = As blinds têm de ser feitas com a ficha mais pequena do jogo, { $chip } (BSOP 80).
limits-err-past = A hora indicada já passou: os jogadores têm de ser avisados antes da alteração (PT-2007 22).
limits-err-time = Escreva a hora como HH:MM (relógio da sala).
limits-err-horizon = É demasiado longe: a alteração é indicada para a sessão em curso, no máximo { $hours ->
    [one] uma hora
   *[other] { $hours } horas
} a partir de agora (PT-2007 22).
limits-err-not-in-play = A mesa { $table } não está em jogo: uma mesa fechada abre com os limites do seu jogo (a BSOP 34 trata de uma mesa em andamento).
limits-err-unchanged = A mesa { $table } já joga com estes limites.
limits-err-pending = Esta mesa já tem uma alteração de limites pendente (n.º { $id }): cancele-a primeiro (BSOP 34).
limits-err-not-pending = Esta alteração de limites já não está pendente ({ $state ->
    [applied] já entrou em vigor
    [cancelled] foi cancelada
   *[other] { $state }
}).
limits-err-transfer-other-limit = A mesa { $table } joga com outros limites: uma transferência só pode ser para uma mesa do mesmo jogo e limite (BSOP 27, 58).
# As ações do registo de auditoria.
action-table-limits_opened = Mesa aberta com os limites do jogo (PT-2007 22)
action-table-limits_change = Alteração de limites aprovada (BSOP 34)
action-table-limits_announced = Alteração de limites anunciada aos jogadores (PT-2007 22)
action-table-limits_applied = Novos limites em vigor (PT-2007 22)
action-table-limits_cancelled = Alteração de limites cancelada
