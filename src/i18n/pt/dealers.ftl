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
