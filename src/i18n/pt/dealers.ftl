dealers-title = Croupiers
dealers-pushes = Croupiers: próximas rendições
dealers-pushes-hour = Rendições na próxima hora
dealers-working = { $count ->
    [one] 1 croupier ao serviço
   *[other] { $count } croupiers ao serviço
}
dealers-tables-without = { $count ->
    [one] 1 mesa sem croupier
   *[other] { $count } mesas sem croupier
}
dealers-no-push-soon = Nenhuma rendição nos próximos 30 minutos.
dealers-no-push = Nenhuma rendição na próxima hora.
dealers-none-in = Nenhum croupier tem a entrada registada: registe-a abaixo.
dealers-late-by = { $min } min de atraso
dealers-now = Agora
dealers-to-break = pausa até às { $time }
dealers-to-free = livre
dealers-no-dealer = Sem croupier
dealers-who-takes = Croupier para a mesa { $table }
dealers-after = { $name } (quando rendido)
dealers-push = Render
dealers-pushed = { $dealer } dá cartas na mesa { $table }.
dealers-pushed-free = { $dealer } dá cartas na mesa { $table }; { $out } fica livre.
dealers-pushed-break = { $dealer } dá cartas na mesa { $table }; { $out } está em pausa até às { $time }.
dealers-rules-down = Turnos de { $min } min
dealers-rules-break = pausas de { $min } min
dealers-rules-after-downs = uma pausa após { $count ->
    [one] 1 turno
   *[other] { $count } turnos
}
dealers-rules-after-min = uma pausa após { $min } min a dar cartas
dealers-tables = Mesas
dealers-no-tables = Nenhuma mesa está em jogo.
dealers-dealer = Croupier
dealers-down-ends = Fim do turno
dealers-down-up = turno terminado
dealers-closing = a fechar
dealers-roster = Escala
dealers-no-dealers = Ainda não há contas de croupier: um administrador cria-as em Pessoal.
dealers-state = Agora
dealers-downs = Turnos desde a pausa
dealers-since = desde as { $time }
dealers-dealt-min = { $min } min
dealers-break-due = pausa devida
dealers-state-dealing = a dar cartas
dealers-state-on_break = em pausa
dealers-state-available = disponível
dealers-state-off = fora de serviço
dealers-act-clock-in = Registar entrada
dealers-act-clock-out = Registar saída
dealers-act-break = Pausa
dealers-act-back = Regresso
dealers-said-in = { $dealer } tem a entrada registada.
dealers-said-out = { $dealer } tem a saída registada.
dealers-said-break = { $dealer } está em pausa.
dealers-said-back = { $dealer } regressou da pausa.
err-dealer-outgoing-to = Escolha para onde vai o croupier rendido: pausa, ou livre.
relief-open = Render nesta mesa
relief-next = a seguir: { $dealer } às { $time }
relief-who = O seu nome
relief-pin = O seu PIN
relief-go = Render agora
relief-done = { $dealer } dá cartas nesta mesa agora.
relief-out-break = { $dealer }: pausa até às { $time }.
relief-out-table = { $dealer }: a seguir, mesa { $table } às { $time }.
relief-out-free = { $dealer }: livre para a próxima rendição.
err-dealer-pin-format = Um PIN tem 4 a 6 algarismos.
account-pin-title = PIN de mesa
account-pin-intro = O PIN que escreve no tablet de uma mesa para render o croupier que lá está (4 a 6 algarismos).
account-pin-label = Novo PIN
account-pin-save = Guardar o PIN
account-pin-saved = O seu PIN de mesa está guardado.
my-night-nav = A minha noite
my-night-title = A minha noite
my-night-now = Agora
my-night-downs = { $count ->
    [one] 1 turno desde a última pausa
   *[other] { $count } turnos desde a última pausa
}
my-night-next-table = A seguir: mesa { $table } às { $time }.
my-night-next-break = Rendido às { $time }, depois pausa até às { $until }.
my-night-next-relieved = Rendido às { $time }.
my-night-no-next = Nenhuma rendição para si na próxima hora.
my-night-said-in = Tem a entrada registada.
my-night-said-out = Tem a saída registada.
my-night-said-break = Está em pausa.
my-night-said-back = Regressou da pausa.
report-dealers-nav = Croupiers
report-dealers-title = Horas e gorjetas dos croupiers
report-dealers-prev = Anterior
report-dealers-next = Seguinte
report-dealers-intro = Os turnos de cada croupier, as horas a dar cartas, as pausas que as regras de rendição da sala pediam e as que foram gozadas, as rendições feitas depois do fim do turno, e as gorjetas de cada turno (PT-2007 5, 9d).
report-dealers-pooled = A sala põe as gorjetas em comum: a parte de cada croupier é pelas horas a dar cartas.
report-dealers-hours = Por croupier
report-dealers-csv-downs = CSV dos turnos
report-dealers-downs = Todos os turnos
report-dealers-late = atrasada
report-dealers-col-dealer = Croupier
report-dealers-col-downs = Turnos
report-dealers-col-hours = Horas a dar cartas
report-dealers-col-breaks-due = Pausas devidas
report-dealers-col-breaks-taken = Pausas gozadas
report-dealers-col-late = Rendições atrasadas
report-dealers-col-tips = Gorjetas
report-dealers-col-share = Parte em comum
report-dealers-col-start = Início
report-dealers-col-end = Fim
report-dealers-col-minutes = Minutos
report-dealers-chart = Croupiers na sala e mesas abertas
report-dealers-chart-desc = Por hora do dia, em média: os croupiers com entrada registada face às mesas com jogadores sentados. Onde as mesas passam os croupiers, faltou pessoal.
report-dealers-chart-axis = Em média
report-dealers-on-floor = Croupiers na sala
report-dealers-tables-open = Mesas abertas
report-dealers-gaps = Mesas sem croupier com jogadores à espera
report-dealers-gaps-intro = Minutos em que cada mesa tinha jogadores sentados mas nenhum croupier, enquanto a lista do seu jogo tinha jogadores à espera.
report-dealers-gaps-none = Nenhuma: todas as mesas em jogo tiveram croupier enquanto havia jogadores à espera.

action-dealer-clock_in = Entrada do croupier
action-dealer-clock_out = Saída do croupier
action-dealer-break = Croupier em pausa
action-dealer-back = Croupier de volta da pausa
action-dealer-push = Rendição de croupier numa mesa
action-dealer-relieve = Croupier retirado de uma mesa (sem croupier até à próxima rendição)
action-dealer-pin_set = PIN do croupier definido
err-dealer-none-here = A mesa { $table } não tem croupier para retirar.
dealers-take-off = Retirar da mesa
dealers-take-off-break = Para pausa
dealers-take-off-available = Livre
dealers-relieved-break = { $dealer } saiu da mesa { $table } e está em pausa até às { $time }; a mesa fica sem croupier até à próxima rendição.
dealers-relieved-free = { $dealer } saiu da mesa { $table } e está livre para a próxima rendição; a mesa fica sem croupier até lá.
