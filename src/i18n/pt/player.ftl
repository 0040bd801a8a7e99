# A página do próprio jogador (/p/{token}): todas as chaves começam por plink- (sem
# colisões com os outros catálogos: uma chave repetida impede o arranque).

plink-title = O seu lugar na lista
plink-hello = Olá, { $alias }
plink-private = Esta página é só sua: não partilhe a ligação.
plink-live = Atualiza-se sozinha
plink-lists = As suas listas de espera
plink-no-lists = Não está em nenhuma lista de espera.
plink-position = O seu lugar
plink-ahead = { $ahead ->
    [0] Ninguém à sua frente
    [one] 1 jogador à sua frente
   *[other] { $ahead } jogadores à sua frente
}
plink-of = { $of ->
    [one] 1 jogador nesta lista
   *[other] { $of } jogadores nesta lista
}
plink-call-in = Apresente-se no balcão até às { $time } para manter o lugar.
plink-lapsed = A sua inscrição por telefone caducou: apresente-se no balcão.
plink-called = O seu lugar está pronto!
plink-called-where = Mesa { $table }, lugar { $seat }
plink-respond-by = Responda até às { $time }
plink-time-left = Tempo restante
plink-on-my-way = A caminho
plink-more-time = Preciso de mais tempo
plink-more-time-hint = Mais { $minutes } min, uma vez.
plink-leave = Sair desta lista
plink-leave-confirm = Sim, retirem-me desta lista
plink-answer-on_my_way = O floor sabe que está a caminho.
plink-answer-more_time = O floor deu-lhe mais tempo.
plink-extended = Já teve o tempo extra para esta chamada.
plink-seated = Está a jogar
plink-seated-at = Mesa { $table }, lugar { $seat }
plink-move-must_move = Mudança obrigatória: o seu lugar no jogo principal está pronto
plink-move-seat_change = O lugar que pediu está livre: mude agora
plink-move-list = O seu lugar está pronto!
plink-move-by = Esteja lá até às { $time }
plink-seated-since = desde as { $time }
plink-today = Hoje
plink-today-hint = Desde o início do dia de jogo, às { $time }
plink-today-none = Ainda não jogou hoje.
plink-col-game = Jogo
plink-col-time = Tempo de jogo
plink-col-in = Entradas
plink-col-out = Retirado
plink-total = Total
plink-expired-title = Esta ligação expirou
plink-expired-text = As ligações valem até ao fim do dia de jogo. Peça uma nova ao floor.
plink-revoked-title = Esta ligação já não é válida
plink-revoked-text = O floor substituiu-a. Use a ligação mais recente que recebeu, ou pergunte no balcão.
plink-forged-title = Ligação não reconhecida
plink-forged-text = Confirme que abriu a ligação completa da sua mensagem, ou pergunte no balcão.
plink-rate-title = Demasiados pedidos
plink-rate-text = Aguarde um minuto e tente de novo.
plink-error-title = Não foi possível
plink-back = Voltar à minha página
plink-err-extended-once = Só pode pedir mais tempo uma vez por chamada.
plink-floor-answer-on_my_way = A caminho
plink-floor-answer-more_time = Pede mais tempo
plink-floor-answer-hint = A resposta do jogador na sua ligação
action-seat-call_answer = Respondeu a uma chamada (ligação própria)
action-list-leave = Saiu de uma lista de espera (ligação própria)
plink-seat-free-now = Há um lugar livre agora: a sala vai chamar por si em breve. Fique por perto.

# join
join-title = Inscrever-se numa lista
join-intro = Escolha até { $max } listas e indique o seu número de telemóvel: enviamos-lhe um código para o confirmar.
join-pick = Listas (até { $max })
join-no-games = Nenhuma lista está aberta de momento: dirija-se ao balcão.
join-waiting = { $count ->
    [one] 1 em espera
   *[other] { $count } em espera
}
join-interest = { $count ->
    [one] Lista de interesse: 1 jogador
   *[other] Lista de interesse: { $count } jogadores
}
join-phone = Número de telemóvel
join-phone-hint = Sem indicativo do país, é acrescentado +{ $code }.
join-phone-hint-none = Com o indicativo do país, p. ex. +351 912 345 678.
join-name = O seu nome
join-name-hint = Como no documento de identificação. Se ainda não tem registo nesta sala, o registo é feito no balcão com este nome.
join-send-code = Enviar-me um código
join-private = O seu número serve apenas para confirmar que é seu e para avisar quando o seu lugar estiver pronto.
join-code-title = Introduza o código
join-code-sent = Se este número puder receber mensagens, um código de 6 algarismos segue para { $phone } (por SMS, ou por e-mail se é assim que a sala o contacta). É válido durante 10 minutos.
join-code-lists = Listas
join-code = Código
join-confirm = Confirmar
join-no-code = Não recebeu o código? Recomeçar
join-start-again = Recomeçar
join-done-title = Obrigado
join-see-desk-title = Obrigado
join-see-desk = Dirija-se ao balcão para concluir o pedido.
join-guest-title = O seu lugar está guardado
join-guest-places = Ainda não tem registo nesta sala. O seu lugar em cada lista:
join-guest-place = lugar { $place }
join-guest-register = Venha ao balcão com um documento de identificação com fotografia válido nos próximos { $minutes } minutos para fazer o registo (maiores de 18 anos): só é chamado depois do registo e o lugar fica guardado até lá.
join-already = Já inscrito em
join-skipped = Não inscrito (a lista fechou, ou tem de passar primeiro pelo balcão)
join-here-title = Confirmar presença
join-here-stale = Este código mudou: leia de novo o que está no ecrã do balcão.
join-here-no_link = Leia o código do balcão com o telemóvel com que se inscreveu na lista (no mesmo navegador) ou peça ao balcão que confirme a sua presença.

# seat preferences
plink-pref-title = Preferência de lugar
plink-pref-hint = O seu lugar na lista não muda. Na sua vez, é-lhe oferecido um lugar livre adequado, se a mesa tiver um.
plink-pref-seats = Lugares que prefere (por exemplo 1, 2)
plink-pref-avoid = Mesas que prefere evitar (números)
plink-pref-accessible = Preciso de um lugar acessível
plink-pref-wait = Manter o meu lugar na lista e esperar por um lugar adequado (a sala limita quantos lugares podem passar)
plink-pref-save = Guardar a preferência

# An interest list with players on it
join-needed = faltam { $needed } para começar um jogo
