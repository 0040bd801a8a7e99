# Páginas de administração: sala e perfil de regras, jogos, mesas, pessoal, registo de auditoria.

## Comum

admin-saved = Guardado.
admin-status = Estado
admin-active = Ativo
admin-inactive = Inativo
admin-history = Histórico
admin-range = Permitido: de { $min } a { $max }.
admin-range-minutes = Permitido: de { $min } a { $max } minutos.
admin-range-minutes-fixed = Fixo: { $value } minutos.
admin-range-percent = Permitido: de { $min } % a { $max } %.

## Sala

admin-room-title = Sala e regras
admin-room-general = Sala
admin-room-name = Nome da sala
admin-room-timezone = Fuso horário
admin-room-timezone-hint = Um fuso horário IANA, p. ex. Europe/Lisbon. As datas e horas são mostradas e introduzidas neste fuso.
admin-room-currency = Moeda
admin-room-currency-hint = Os montantes são guardados em cêntimos; mudar a moeda não os converte.
admin-room-language = Língua por omissão
admin-room-language-hint = Usada sempre que ninguém escolheu uma língua.

## Perfil de regras

admin-profile-kind = Perfil de regras
admin-profile-kind-hint = Onde os textos das regras divergem, decide o perfil. Para seguir outro perfil, ou voltar aos valores de um perfil, veja primeiro que regras da casa mudariam:
admin-profile-title = Regras da casa
admin-profile-intro = Todos os números com que a chefia de sala trabalha. Cada regra indica a sua origem e só aceita os valores que essa regra permite.
admin-profile-switch-title = Mudar o perfil de regras
admin-profile-switch-hint = Escolha um perfil para ver que regras da casa diferem dos seus valores de origem; depois confirma, regra a regra, que valores aplicar. Escolher o perfil que a sala segue mostra o que mudaria ao voltar aos seus valores de origem. O nome, o fuso horário, a moeda e a língua da sala mantêm-se.
admin-profile-switch-show = Mostrar o que mudaria
admin-profile-switch-page-title = Mudar para { $profile }
admin-profile-switch-intro = A sala segue o perfil { $from }. Estas regras da casa diferem dos valores de origem de { $to }: cada uma assinalada toma o novo valor, cada uma não assinalada mantém o seu. O perfil passa a ser { $to } em qualquer caso.
admin-profile-switch-reset-intro = Estas regras da casa diferem dos valores de origem de { $to }: cada uma assinalada volta ao valor de origem, cada uma não assinalada mantém o seu.
admin-profile-switch-none = Nenhuma regra da casa difere dos valores de origem de { $to }: mudar só muda o nome do perfil.
admin-profile-switch-none-same = Todas as regras da casa têm o valor de origem de { $to }: não há nada a mudar.
admin-profile-switch-setting = Regra da casa
admin-profile-switch-now = Agora
admin-profile-switch-default = Valor de { $profile }
admin-profile-switch-apply = Aplicar
admin-profile-switch-untick = Tire a marca a uma regra para manter o valor da sala.
admin-profile-switch-submit = Mudar para { $profile }
admin-profile-switch-reset-submit = Aplicar os valores assinalados
admin-profile-minutes = { $n } min
admin-profile-yes = Sim
admin-profile-no = Não
profile-pt-casino = Casino português (PT-2007)
profile-bsop = BSOP (Brasil)

admin-profile-group-running = Funcionamento do jogo
admin-profile-note-running = PT-2007 24: um jogo com menos jogadores do que o mínimo é suspenso e encerra se não voltar ao mínimo a tempo (o PT-ONL 7 funciona com 2).
admin-profile-group-absence = Ausência e regresso
admin-profile-note-absence = BSOP 36: as fichas de um jogador ausente podem ser retiradas depois do limite de ausência ou das big blinds falhadas. BSOP 26, 37: a janela de regresso. PT-2007 90 e BSOP 39: blinds em falta.
admin-profile-group-stay = Permanência mínima
admin-profile-note-stay = BSOP 38: um jogador que está a ganhar fica pelo menos 1 hora numa mesa Mid Limit e 2 horas numa mesa High Limit.
admin-profile-group-cagnotte = Cagnotte (percentagem da casa)
admin-profile-note-cagnotte = PT-2007 7: a casa cobra a sua percentagem por mão (7a, até 5 %) ou por sessão (7b, de 5 % a 20 % por hora de jogo). PT-ONL 18: sem flop, sem cagnotte. PT-2007 28: entrada num jogo por sessão.
admin-profile-group-calls = Lista de espera e chamadas
admin-profile-note-calls = Quanto tempo tem um jogador chamado para responder, o que acontece quando não responde, quanto duram as inscrições por telefone e quando é alertado o chefe de sala.
admin-profile-group-dealers = Croupiers: turnos de mesa e pausas
admin-profile-note-dealers = Quanto tempo um croupier dá cartas numa mesa antes de ser rendido e quando lhe cabe uma pausa. A regra tem de dar uma pausa a cada croupier numa noite de 12 horas.

admin-profile-min-players-to-run = Mínimo de jogadores para o jogo decorrer
admin-profile-min-players-to-run-hint = PT-2007 24: com menos jogadores, o jogo é suspenso.
admin-profile-suspension-grace-min = Prazo de suspensão (minutos)
admin-profile-suspension-grace-min-hint = PT-2007 24: um jogo suspenso encerra se não voltar ao mínimo dentro deste prazo.
admin-profile-absence-limit-min = Limite de ausência (minutos)
admin-profile-absence-limit-min-hint = BSOP 36: as fichas de um jogador ausente podem ser retiradas depois deste tempo.
admin-profile-missed-bb-before-removal = Big blinds falhadas antes da remoção
admin-profile-missed-bb-before-removal-hint = BSOP 36: ou quando o jogador falhar este número de big blinds.
admin-profile-return-window-min = Janela de regresso (minutos)
admin-profile-return-window-min-hint = BSOP 26, 37: um jogador que sai e volta dentro deste tempo conta como regresso.
admin-profile-missed-blinds-dead = Blinds em falta pagas como mortas no regresso
admin-profile-missed-blinds-dead-hint = PT-2007 90. Desmarcado, aplica-se o BSOP 39: pagar as blinds em falta ou esperar pela big blind.
admin-profile-min-stay-mid-min = Permanência mínima em Mid Limit (minutos)
admin-profile-min-stay-mid-min-hint = BSOP 38: quem está a ganhar numa mesa Mid Limit fica pelo menos este tempo.
admin-profile-min-stay-high-min = Permanência mínima em High Limit (minutos)
admin-profile-min-stay-high-min-hint = BSOP 38: quem está a ganhar numa mesa High Limit fica pelo menos este tempo; nunca menos do que em Mid Limit.
admin-profile-cagnotte-mode = Modo de cagnotte por omissão para novos jogos
admin-profile-cagnotte-mode-hint = PT-2007 7: por mão (7a) ou por sessão (7b).
admin-profile-rake-percent-bp = Cagnotte por mão (%)
admin-profile-rake-percent-bp-hint = PT-2007 7a: no máximo 5 % de cada pote.
admin-profile-session-percent-bp = Cagnotte por sessão (%)
admin-profile-session-percent-bp-hint = PT-2007 7b: de 5 % a 20 % por sessão.
admin-profile-session-length-min = Duração da sessão (minutos)
admin-profile-session-length-min-hint = PT-2007 7b: uma hora de jogo, mais a mão em curso.
admin-profile-late-seat-window-min = Prazo de entrada tardia (minutos)
admin-profile-late-seat-window-min-hint = PT-2007 7b: os jogadores sentados até este tempo depois do início da sessão também a pagam.
admin-profile-no-flop-no-drop = Sem flop, sem cagnotte
admin-profile-no-flop-no-drop-hint = PT-ONL 18: não há cagnotte numa mão que termina antes do flop sem aposta voluntária.
admin-profile-join-at-average-stack = Entrada em jogos em curso com a média das fichas
admin-profile-join-at-average-stack-hint = PT-2007 28: quem toma lugar numa partida em curso entra com a média do capital em jogo na mesa.
admin-profile-join-at-average-session-only = Média das fichas só nos jogos por sessão
admin-profile-join-at-average-session-only-hint = O PT-2007 28 não distingue modos: desligado, aplica-se a qualquer partida em curso; ligado, os jogos contínuos usam os seus limites de entrada.
admin-profile-seat-call-response-min = Tempo para responder a uma chamada (minutos)
admin-profile-seat-call-response-min-hint = Quanto tempo tem um jogador chamado para se apresentar na mesa.
admin-profile-call-expiry = Quando uma chamada expira
admin-profile-call-expiry-hint = O que acontece a um jogador chamado que não responde a tempo.
admin-profile-call-in-expiry-min = Duração das inscrições por telefone (minutos)
admin-profile-call-in-expiry-min-hint = Uma inscrição por telefone é retirada se o jogador não se apresentar dentro deste prazo.
admin-profile-seat-call-ack-escalation-min = Alertar chamadas sem confirmação após (minutos)
admin-profile-seat-call-ack-escalation-min-hint = Uma chamada que ninguém confirmou é destacada no painel do chefe de sala depois deste tempo.

cagnotte-per_hand = Por mão
cagnotte-per_session = Por sessão
call-expiry-bottom = Passa para o fim da lista
call-expiry-remove = Sai da lista

## Jogos

admin-games-title = Jogos
admin-games-none = Ainda não há jogos. Crie o primeiro abaixo.
admin-game-new = Novo jogo
admin-game-create = Criar jogo
admin-game-edit = Editar jogo
admin-game-name = Nome
admin-game-variant = Variante
admin-game-blinds = Blinds
admin-game-small-blind = Small blind
admin-game-big-blind = Big blind
admin-game-blinds-hint = Em unidades, p. ex. 2,50. Os jogos bancados (Q Poker, 13 cartas) não têm blinds: deixe ambas em branco.
admin-game-limit = Classe de limite
admin-game-limit-hint = BSOP 38: define a permanência mínima de quem está a ganhar.
admin-game-buy-in = Cave
admin-game-buy-in-min = Cave mínima
admin-game-buy-in-max = Cave máxima
admin-game-buy-in-max-hint = Opcional: em branco, não há máximo (BSOP 27).
admin-game-no-max = sem máximo
admin-game-seats = Lugares
admin-game-seats-hint = Opcional: em branco, usa o número da variante (PT-2007 6, BSOP 92, MO-QP 2, MO-13 3):
admin-game-cagnotte = Cagnotte
admin-game-cagnotte-mode = Modo de cagnotte
admin-game-cagnotte-percent = Cagnotte (%)
admin-game-cagnotte-hint = Opcional; PT-2007 7: por mão até 5 %, por sessão de 5 % a 20 %.
admin-game-cagnotte-default = Predefinição da sala: { $mode }, { $hand } % por mão, { $session } % por sessão.
admin-game-profile-default = Predefinição da sala
admin-game-active-hint = Um jogo inativo é mantido, mas deixa de ser proposto.

variant-holdem_nl = Hold'em No Limit
variant-holdem_pl = Hold'em Pot Limit
variant-holdem_limit = Hold'em Limit
variant-plo = Omaha Pot Limit
variant-omaha = Omaha
variant-short_deck_holdem = Hold'em Short Deck
variant-short_deck_plo = PLO Short Deck
variant-synthetic = Póquer sintético
variant-q_poker = Q Poker
variant-thirteen_cards = 13 cartas
limit-low = Low Limit
limit-mid = Mid Limit
limit-high = High Limit

## Mesas

admin-tables-title = Mesas
admin-tables-none = Ainda não há mesas. Crie a primeira abaixo.
admin-table-new = Nova mesa
admin-table-create = Criar mesa
admin-table-title = Mesa { $number }
admin-table-number = Número
admin-table-number-hint = De 1 a 999, único na sala.
admin-table-seats = Lugares
admin-table-seats-hint = Opcional: em branco, usa os lugares do jogo (10 sem jogo). PT-2007 6: no máximo 11.
admin-table-game = Jogo
admin-table-no-game = Sem jogo
admin-table-mode = Modo
admin-table-mode-hint = PT-2007 74: uma mesa funciona em contínuo ou por sessões.
admin-table-state = Situação
admin-table-active = Ativa
admin-table-inactive = Inativa
admin-table-active-hint = Uma mesa inativa é mantida, mas não é usada para sentar jogadores.
mode-continuous = Contínuo
mode-session = Por sessões
table-state-closed = Fechada
table-state-open = Aberta
table-state-suspended = Suspensa

## Pessoal

admin-staff-title = Pessoal
admin-staff-new = Novo funcionário
admin-staff-create = Criar conta
admin-staff-display-name = Nome a mostrar
admin-staff-role = Função
admin-staff-role-hint = Administrador: configuração, pessoal e auditoria. Chefe de sala: registo de jogadores e sala. Croupier: o tablet da mesa. Caixa: consulta jogadores.
admin-staff-created = Criado em
admin-staff-updated = Última alteração
admin-staff-username-hint = Letras minúsculas, algarismos, ponto, hífen e sublinhado; até 32. Não pode ser alterado depois.
admin-staff-username-fixed = O nome de utilizador nunca muda.
admin-staff-initial-password = Palavra-passe inicial
admin-staff-password-hint = Pelo menos 10 caracteres. Entregue-a à pessoa, que a deve alterar depois de entrar.
admin-staff-password = Palavra-passe
admin-staff-new-password = Nova palavra-passe
admin-staff-new-password-hint = Deixe em branco para manter a atual. Definir uma nova termina todas as sessões da pessoa.
admin-staff-active-hint = Uma conta inativa não pode entrar; as sessões abertas terminam de imediato.
admin-staff-is-me = Esta é a sua própria conta: não pode retirar a sua função de administrador nem desativar-se.

## Registo de auditoria

admin-audit-title = Registo de auditoria
admin-audit-action = Ação
admin-audit-action-hint = Uma ação ou o seu início, p. ex. player. ou game.update
admin-audit-actor-hint = nome de utilizador
admin-audit-subject = Objeto
admin-audit-subject-kind = Tipo de objeto
admin-audit-subject-id = Número do objeto
admin-audit-kind-any = Qualquer
admin-audit-kind-player = Jogador
admin-audit-kind-staff = Funcionário
admin-audit-kind-game = Jogo
admin-audit-kind-table = Mesa
admin-audit-kind-room = Sala
admin-audit-dates-hint = Datas no fuso horário da sala ({ $zone }).
admin-audit-to-hint = Inclui o dia inteiro.
admin-audit-page-size = Registos por página
admin-audit-page-size-hint = De 1 a 200 (50 por omissão).
admin-audit-clear = Limpar filtros
admin-audit-bad-filter = Alguns filtros não são válidos:
admin-audit-fix-filter = Corrija os filtros acima para ver os registos.
admin-audit-none = Nenhum registo corresponde.
admin-audit-seq = N.º
admin-audit-change = Alteração
admin-audit-show = Antes → depois
admin-audit-before = Antes:
admin-audit-after = Depois:
admin-audit-hash = Hash
admin-audit-pages = Páginas
admin-audit-newest = ← Mais recentes
admin-audit-older = Mais antigos
admin-audit-verify = Verificar a cadeia
admin-audit-verify-intro = Recalcula o hash de cada registo, confirma que cada registo está ligado ao anterior e confere os pontos de controlo assinados guardados fora da base de dados: cortar registos no fim, apagar, inserir ou reescrever registos (mesmo recalculando todos os hashes) aparece aqui.
admin-audit-verify-ok = Cadeia intacta: { $count ->
    [one] 1 registo verificado.
   *[other] { $count } registos verificados.
}
admin-audit-verify-broken = A cadeia está quebrada no registo n.º { $seq }.
admin-audit-verify-broken-unknown = A cadeia está quebrada.
admin-audit-verify-checked = { $count ->
    [one] 1 registo anterior verificado.
   *[other] { $count } registos anteriores verificados.
}
admin-audit-verify-show = Mostrar os registos à volta
admin-audit-broken-tampered = O conteúdo do registo não corresponde ao seu hash: foi alterado depois de escrito.
admin-audit-broken-unlinked = O registo não está ligado ao registo anterior.
admin-audit-broken-gap = Faltam registos antes deste.

## Mensagens de campo destas páginas

admin-err-percent-range = Deve estar entre { $min } % e { $max } %.

## Mensagens aos jogadores
action-message-retry = Mensagem a um jogador enviada de novo (tentar agora)
action-message-failed = Mensagem a um jogador falhou (sem mais tentativas)
action-player-links_revoked = Links do jogador revogados

## Cagnotte settings
admin-game-cagnotte-base = Percentagem por sessão sobre
admin-game-cagnotte-base-hint = PT-2007 7b: o máximo da mesa ou a cave, conforme a variante.
admin-game-rake-cap = Limite da percentagem por mão
admin-game-rake-cap-hint = Opcional; PT-2007 7a. Vazio: só a percentagem limita.
table-policy-must_move = Must move
table-policy-balanced = Equilibradas
admin-game-table-policy = Mesas adicionais
admin-game-table-policy-hint = BSOP 55: a mesa mais recente é MUST MOVE e alimenta as mesas principais pela ordem da lista; BSOP 58: equilibradas, cada novo jogador vai para a mesa que mais precisa. Uma alteração aplica-se quando uma mesa do jogo abrir ou fechar.
board-policy-pending = { $policy } a partir da próxima mesa aberta ou desfeita
admin-game-smallest-chip = Ficha mais pequena
admin-game-colour = Cor no quadro da sala
admin-game-colour-hint = As mesas e a lista deste jogo aparecem com esta cor na sala.
admin-game-smallest-chip-hint = Opcional; BSOP 80: o que a casa retira é arredondado por defeito a esta ficha. Vazio: a partir das blinds.
admin-game-cagnotte-base-auto = O máximo da mesa se o jogo o tiver, senão a cave
nav-backups = Cópias de segurança
admin-backups = Cópias de segurança
admin-backups-now = Fazer cópia agora
admin-backups-intro = O servidor copia a base de dados enquanto a sala joga, verifica cada cópia (integridade e todo o registo de auditoria) e só então a guarda. Para repor uma, pare o servidor e use `cardroom restore FICHEIRO`.
admin-backups-where = Em { $dir }
admin-backups-every = a cada { $minutes } minutos
admin-backups-keep = guardadas as { $count } mais recentes
admin-backups-none-yet = Ainda não há cópias: a primeira é feita um intervalo depois do arranque, ou agora com o botão.
admin-backups-file = Ficheiro
admin-backups-taken = Feita em
admin-backups-size = Tamanho
admin-backups-check = Verificação
admin-backups-checked = Integridade e registo de auditoria verificados
admin-backups-failed = A última cópia falhou ({ $time }):
admin-backups-off = As cópias programadas estão desligadas. Defina CARDROOM_BACKUP_DIR (e CARDROOM_BACKUP_EVERY_MIN, CARDROOM_BACKUP_KEEP) para as ligar; `cardroom backup` faz uma a qualquer momento.
admin-backups-postgres = A base de dados é PostgreSQL: faça as cópias com as ferramentas do PostgreSQL (pg_dump, arquivo do WAL). `cardroom backup` mostra um comando pronto.
backup-alert = A última cópia de segurança da base de dados falhou ({ $time }). Até uma ter sucesso, uma avaria do disco pode perder os registos desta noite.
admin-staff-sessions-open = { $count ->
    [0] Esta pessoa não tem sessões nem tokens da API abertos.
    [one] Esta pessoa tem 1 sessão ou token da API aberto.
   *[other] Esta pessoa tem { $count } sessões ou tokens da API abertos.
}
admin-staff-sessions-end = Terminar todas as sessões e tokens da API
admin-audit-broken-truncated = Desapareceu um registo garantido por um ponto de controlo assinado: o registo foi cortado ou foram apagados registos.
admin-audit-broken-rewritten = Um registo garantido por um ponto de controlo assinado mudou (ele, ou um anterior, foi reescrito e a cadeia recalculada).
admin-audit-broken-checkpoint_forged = Uma linha do ficheiro de pontos de controlo não tem uma assinatura válida: o ficheiro foi editado (o número acima é a linha).
admin-audit-broken-checkpoints_reordered = O ficheiro de pontos de controlo anda para trás: foi cortado e escrito de novo (o número acima é a linha).
admin-audit-broken-checkpoints_missing = Falta o ficheiro de pontos de controlo: nada fora da base de dados garante os registos.
admin-audit-verify-sealed = Pontos de controlo assinados garantem todos os registos até { $seq }.
admin-audit-verify-checkpoints = { $count ->
    [one] 1 ponto de controlo verificado
   *[other] { $count } pontos de controlo verificados
}
admin-audit-verify-limits = Não detetável: alterações aos registos do último minuto (ainda sem ponto de controlo) e alterações por quem tenha a chave de assinatura, o ficheiro de pontos de controlo e a base de dados ao mesmo tempo. Guarde uma cópia do ficheiro de pontos de controlo noutro sítio.

# join
admin-profile-remote-max-lists = Listas a que um jogador se pode inscrever pelo telemóvel
admin-profile-remote-max-lists-hint = A quantas listas de espera um jogador se pode inscrever de uma vez na página de inscrição (o código QR do ecrã da sala).

# seat preferences
admin-profile-pref-max-passes = Lugares que um jogador pode deixar passar à espera de um lugar preferido
admin-profile-pref-max-passes-hint = Quem pediu para esperar por um lugar adequado à sua preferência mantém o lugar na lista enquanto este número de lugares vai para outros; depois é chamado como qualquer outro. 0: as preferências nunca retêm um lugar.
admin-profile-push-down-min = Turno de mesa (minutos numa mesa)
admin-profile-push-down-min-hint = De 10 a 90 minutos. No fim, o croupier seguinte rende a mesa.
admin-profile-push-break-min = Pausa (minutos)
admin-profile-push-break-min-hint = De 5 a 60 minutos.
admin-profile-push-break-after-downs = Pausa após este número de turnos
admin-profile-push-break-after-downs-hint = 0 a 24; 0: só a regra de tempo abaixo.
admin-profile-push-break-after-min = Pausa após este tempo a dar cartas (minutos)
admin-profile-push-break-after-min-hint = 0 a 720; 0: só a regra de turnos acima. Com as duas, a primeira que for atingida dá a pausa.
admin-profile-tips-pooled = Gorjetas em comum
admin-profile-tips-pooled-hint = PT-2007 5, 9d: as gorjetas de todos os turnos são repartidas pelos croupiers segundo as horas a dar cartas (o relatório dos croupiers mostra a parte de cada um). Sem visto: cada turno fica com a sua caixa de gorjetas.
admin-table-accessible-seats = Lugares reservados a necessidades de acessibilidade (BSOP 45)
admin-table-accessible-seats-hint = Números dos lugares, por exemplo 1, 10. A quem precisa de um lugar acessível é oferecido um destes.
