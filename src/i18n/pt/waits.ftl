# A espera que todos os ecrãs mostram (PT-2007 8a, BSOP 43): domain::waits, services::waits.
waits-duration = { $hours ->
    [0] { $minutes } min
   *[other] { $minutes ->
        [0] { $hours } h
       *[other] { $hours } h { $minutes } min
    }
}
waits-free-now = Há um lugar livre agora
waits-unknown = Ainda sem estimativa: pouco histórico a esta hora
waits-between-min = entre { $low } e { $high } min
waits-between = entre { $low } e { $high }
waits-up-to = até { $time }
waits-more-than = mais de { $time }
waits-label = Espera estimada
waits-join-label = Para quem se inscreve agora
waits-hint = Calculada pela frequência com que se libertaram lugares deste jogo e com que jogadores saíram da lista nas últimas noites, a esta hora: na maioria das noites, a espera real fica dentro deste intervalo.
