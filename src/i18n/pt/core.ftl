# Catálogo principal (português europeu): navegação, entrada, jogadores, erros.

## Navegação e ações comuns
nav-home = Visão geral
nav-label = Principal
nav-tablet = Tablet
nav-custody = Fichas em custódia
nav-players = Jogadores
nav-room = Definições da sala
nav-games = Jogos
nav-tables = Mesas
nav-staff = Pessoal
nav-audit = Registo de auditoria
nav-password = Alterar palavra-passe
action-back = Voltar
action-save = Guardar
action-cancel = Cancelar
action-edit = Editar
action-search = Procurar
action-login = Entrar
action-logout = Sair
action-remove = Remover
action-ban = Excluir jogador
action-lift-ban = Levantar exclusão
action-separate = Manter separados
role-admin = Administrador
role-floor = Chefe de sala
role-dealer = Croupier
role-cashier = Caixa
lang-pt = Português
lang-en = Inglês
error-reference = Referência para quem lê os registos do servidor: { $id }
error-title = Algo não está certo

## Entrada e conta
login-title = Entrar
login-intro = Acesso do pessoal da sala de póquer.
field-username = Utilizador
field-password = Palavra-passe
password-title = Alterar palavra-passe
password-changed = A sua palavra-passe foi alterada. As outras sessões da sua conta foram terminadas.
field-current-password = Palavra-passe atual
field-new-password = Nova palavra-passe
field-confirm-password = Repita a nova palavra-passe
hint-password = Pelo menos 10 caracteres.

## Painel da sala
dash-title = Painel da sala
dash-players = jogadores registados
dash-games = jogos
dash-tables = mesas
dash-tables-with-game = mesas com jogo
dash-setup = Configuração da sala
dash-no-tables = Ainda não há mesas: um administrador cria-as em Mesas.
dash-table = Mesa
dash-game = Jogo
dash-blinds = Blinds
dash-buy-in = Cave (BSOP 24)
dash-seats = Lugares
dash-mode = Funciona
dash-mode-continuous = Em contínuo
dash-mode-session = Por sessões

## Jogadores
players-new = Registar jogador
players-edit = Editar jogador
players-search-hint = Nome, alcunha, documento ou telefone
players-none = Nenhum jogador corresponde.
players-limited = Só são mostrados os primeiros 100 resultados; escreva mais para restringir a pesquisa.
players-status = Estado
status-complete = Completo
status-incomplete = Incompleto
players-identity = Identidade
players-document = Documento com fotografia (BSOP 3)
players-contact = Contacto
players-open-existing = Abrir o registo existente
players-eligibility = Elegibilidade para jogar
players-eligible = Pode jogar
players-age = { $age } anos
players-registered = Registado em
players-bans = Exclusões
players-no-bans = Sem exclusões.
players-separations = Nunca na mesma mesa (BSOP 47)
players-separations-hint = Estes jogadores nunca são sentados na mesma mesa.
players-no-separations = Sem separações.
players-history = Histórico
field-full-name = Nome completo
field-dob = Data de nascimento
field-alias = Alcunha pública
field-document = Documento
field-doc-kind = Tipo de documento
field-doc-number = Número do documento
field-doc-country = País emissor
field-doc-expiry = Válido até
field-photo = Fotografia
field-phone = Telemóvel
field-email = E-mail
field-language = Língua
field-notify = Chamadas por
field-reason = Motivo
field-from = Desde
field-until = Até
field-lift-reason = Porque é levantada?
field-other-player = Outro jogador
hint-dob = Só podem jogar maiores de 18 anos (BSOP 1).
hint-alias = Até 12 caracteres, mostrada nos painéis públicos.
hint-country = Duas letras: PT, BR, MO…
hint-photo = JPEG ou PNG, até 5 MB. Sem fotografia o registo fica incompleto e o jogador não pode ser sentado.
hint-photo-replace = Escolha um ficheiro só para substituir a fotografia atual.
hint-phone = Formato internacional, p. ex. +351 912 345 678.
hint-ban-from = Vazio: a partir de agora.
hint-ban-until = Vazio: permanente.
hint-other-player = Nome, alcunha, telefone, documento ou número (#): escolha das sugestões.
doc-passport = Passaporte
doc-driving_licence = Carta de condução
doc-national_id = Cartão de cidadão / identidade
doc-military_id = Identificação militar
notify-sms = SMS
notify-email = E-mail
notify-both = SMS e e-mail
notify-none = Sem notificações
ban-permanent = Permanente
ban-in-force = Em vigor
ban-lifted = Levantada
ban-not-in-force = Sem efeito
inelig-under-18 = Menor de 18 anos
inelig-no-photo = Sem fotografia no registo
inelig-id-expired = Documento de identificação caducado
inelig-banned = Excluído
warn-id-expires = O documento de identificação caduca a { $date } (daqui a { $days } dias): peça o novo.

## Registo de auditoria
audit-when = Quando
audit-who = Quem
audit-what = O quê
action-player-create = Jogador registado
action-player-update = Dados do jogador alterados
action-player-photo = Fotografia tirada
action-player-ban = Excluído
action-player-unban = Exclusão levantada
action-player-separate = Separado de outro jogador
action-player-unseparate = Separação removida
action-room-create = Sala criada
action-room-update = Configuração da sala alterada
action-staff-create = Conta de pessoal criada
action-staff-update = Conta de pessoal alterada
action-staff-password = Palavra-passe alterada
action-staff-language = Língua alterada
action-staff-sign_in = Entrada
action-staff-session_end = Sessão terminada
action-staff-sessions_end = Todas as sessões terminadas
action-security-login_throttled = Tentativas de entrada abrandadas
action-audit-seal_started = Pontos de controlo da auditoria: nova série iniciada
action-staff-login_failed = Entrada falhada
action-game-create = Jogo criado
action-game-update = Jogo alterado
action-table-create = Mesa criada
action-table-update = Mesa alterada
action-clock-advance = Relógio de teste adiantado

## Erros
err-validation = Alguns campos precisam de atenção.
err-bad-request = O pedido não foi compreendido.
err-not-found = Não encontrado: pode ter sido removido, ou o endereço está errado.
err-method = Esta ação não está disponível aqui.
err-internal = Algo correu mal do nosso lado. Nada foi alterado; tente de novo.
err-metrics-token = As métricas pedem o token definido em CARDROOM_METRICS_TOKEN (Authorization: Bearer …), ou um pedido desta máquina.
err-unavailable = A base de dados não está a responder neste momento. Tente de novo dentro de alguns segundos; se acabou de gravar algo, verifique se ficou registado antes de o gravar outra vez.
err-forbidden = A sua função não permite esta ação.
err-csrf = Este formulário expirou ou não veio deste sítio. Recarregue a página e tente de novo.
err-sign-in = Por favor, entre.
err-sign-in-api = Envie um token no cabeçalho Authorization: Bearer <token> (de POST /api/v1/auth/login).
err-session-expired = A sua sessão expirou. Entre de novo.
err-session-ended = A sua sessão terminou (saiu, foi terminada noutro dispositivo ou por um administrador, ou a palavra-passe ou função mudou). Entre de novo.
err-token-invalid = O token de sessão não é válido.
err-login-failed = Utilizador ou palavra-passe errados.
err-login-throttled = Demasiadas tentativas falhadas. Aguarde { $seconds ->
    [one] 1 segundo
   *[other] { $seconds } segundos
} antes de tentar de novo.
err-too-large = O pedido é demasiado grande.
err-content-type = Tipo de conteúdo não suportado.
err-content-type-json = Envie JSON com Content-Type: application/json.
err-content-type-multipart = Envie o formulário como multipart/form-data.
err-json = O corpo JSON não é válido: { $detail }
err-form = O formulário não é válido: { $detail }
err-query = A consulta não é válida: { $detail }
err-concurrent-change = Outra pessoa alterou isto ao mesmo tempo. Recarregue e tente de novo.
err-stale-edit = Outra pessoa guardou este registo depois de o abrir. Recarregue para ver as alterações e edite de novo.
err-number = Indique um número inteiro.
err-money = Indique um montante, p. ex. 2,50.
err-required = Obrigatório.
err-too-long = No máximo { $max } caracteres.
err-invalid-chars = Contém caracteres não permitidos.
err-date = Indique uma data no formato AAAA-MM-DD.
err-datetime = Indique uma data e hora.
err-choice = “{ $value }” não é uma das opções.
err-colour = “{ $value }” não é uma cor como #1f6feb.
err-range = Deve estar entre { $min } e { $max }.
err-limit = Deve estar entre 1 e 200.
err-field-type = Valor não válido para este campo.
err-empty-value = Omita-o ou indique um valor.
err-unknown-setting = “{ $setting }” não é uma das configurações da sala.
err-setting-null = Uma configuração não pode ser removida: indique um valor, ou omita-a para a manter.
err-profile-setting-missing = Em falta: um PUT substitui todo o perfil de regras, por isso todas as configurações têm de ser enviadas (para mudar só algumas, use PATCH).
err-under-18 = Só podem jogar maiores de 18 anos: esta pessoa faz 18 anos a { $date }.
err-dob-future = A data de nascimento é no futuro.
err-dob-too-old = A data de nascimento é de há mais de 120 anos: verifique-a.
err-id-expired = Este documento de identificação caducou a { $date }: peça um válido.
err-doc-number = Indique o número do documento (3 a 30 letras e algarismos).
err-country = Use o código do país com duas letras (p. ex. PT, BR, MO).
err-phone = { $code ->
    [none] Indique o telefone em formato internacional, p. ex. +351912345678.
   *[other] Indique o telefone com { $digits } algarismos (é acrescentado +{ $code }: o país da sala) ou em formato internacional, p. ex. +44 20 7946 0958.
}
err-email = Este endereço de e-mail não é válido.
err-notify-needs-phone = As notificações por SMS precisam de um número de telefone.
err-notify-needs-email = As notificações por e-mail precisam de um endereço de e-mail.
err-notify-needs-both = São precisos um número de telefone e um endereço de e-mail.
err-duplicate-document = Este documento já está registado em nome de { $name } (n.º { $id }).
err-duplicate-document-concurrent = Este documento acabou de ser registado por outra pessoa.
err-photo-not-image = A fotografia tem de ser uma imagem JPEG ou PNG.
err-photo-too-large = A fotografia tem mais de { $max } MB.
err-photo-too-small = A fotografia é demasiado pequena para identificar o jogador (pelo menos { $min } píxeis de lado).
err-search-too-long = A pesquisa é demasiado longa.
err-ban-end-before-start = O fim tem de ser depois do início.
err-ban-end-past = O fim já passou.
err-ban-not-active = Esta exclusão já não está em vigor.
err-separation-self = Um jogador não pode ser separado de si próprio.
err-separation-exists = Estes dois jogadores já estão separados.
err-separation-removed = Esta separação já foi removida.
err-player-unknown = Jogador desconhecido.
err-player-ambiguous = Vários jogadores correspondem a “{ $typed }”: { $players }. Escolha um das sugestões.
err-amount-positive = Indique um montante maior do que zero.
err-amount-range = Indique um montante entre { $min } e { $max }.
err-money-overflow = Os montantes registados aqui somam mais do que é possível contar: um montante registado antes de os montantes terem limites está fora do intervalo. Verifique o registo de auditoria das gorjetas, caixas de drop, rake e quotas deste período.
err-not-text = O campo “{ $field }” tem de ser texto simples (UTF-8).
err-game-bb-below-sb = A big blind não pode ser menor do que a small blind.
err-game-max-below-min = A cave máxima não pode ser inferior à mínima.
err-game-banked-no-blinds = Os jogos bancados não têm blinds: deixe-as a zero.
err-seats-range = Entre { $min } e { $max } lugares para este jogo.
err-no-such-seat = Esta mesa tem os lugares 1 a { $max }.
err-percent-range = Entre { $min } % e { $max } % para esta modalidade (PT-2007 7).
err-game-unknown = Jogo desconhecido.
err-table-number-taken = A mesa { $number } já existe.
err-timezone = Fuso horário desconhecido: use um nome como Europe/Lisbon.
err-currency = Use uma de: { $list }.
err-profile-high-below-mid = A permanência mínima em High Limit não pode ser menor do que em Mid Limit (BSOP 38).
err-password-change-required = Entrou com uma palavra-passe de utilização única: escolha primeiro a sua palavra-passe.
password-one-time = Entrou com uma palavra-passe de utilização única. Escolha a sua palavra-passe para continuar.
err-current-password = A palavra-passe atual está errada.
err-password-short = Pelo menos { $min } caracteres.
err-password-is-username = A palavra-passe não pode ser o nome de utilizador.
err-password-mismatch = As duas novas palavras-passe são diferentes.
err-password-same = A nova palavra-passe tem de ser diferente da atual.
err-username = Letras minúsculas, algarismos, ponto, hífen ou sublinhado (no máximo 32).
err-username-taken = O utilizador { $username } já existe.
err-staff-self-demote = Não pode retirar a sua própria função de administrador nem desativar-se.
err-username-fixed = O nome de utilizador não muda: crie uma nova conta para outro.

## A sala: listas e lugares
err-cannot-play-under-18 = Este jogador é menor de 18 anos e não pode jogar (BSOP 1).
err-cannot-play-no-photo = Este jogador não tem fotografia no registo e não pode jogar até lhe ser tirada uma (BSOP 3).
err-cannot-play-id-expired = O documento de identificação deste jogador caducou: peça um válido antes de jogar (BSOP 3).
err-cannot-play-banned = Este jogador está excluído e não pode jogar (BSOP 10).
err-game-inactive = Este jogo não está a ser oferecido de momento.
err-already-on-list = Este jogador já está nesta lista.
err-undo-too-late = Já não é possível anular: pode voltar a pôr o jogador na lista.
err-entry-not-active = Este jogador já não está na lista.
err-entry-not-call-in = Só uma inscrição por telefone ainda por confirmar pode ser confirmada.
err-call-in-lapsed = Esta inscrição por telefone caducou: inscreva o jogador de novo.
err-table-not-open = A mesa não está aberta.
err-table-no-game = A mesa não tem jogo: escolha-lhe um primeiro.
err-entry-other-game = Este jogador está à espera de outro jogo.
err-seat-for-must-move = Este lugar é primeiro para o jogador da mesa de transferência obrigatória (BSOP 55, 57).
err-table-already-open = A mesa já está aberta.
err-seat-taken = Já está alguém sentado neste lugar.
err-table-full = Todos os lugares desta mesa estão ocupados ({ $places } jogadores): não pode sentar-se mais ninguém (BSOP 50: uma mesa iniciada com um jogador extra volta ao número normal de lugares assim que alguém sai).
err-seat-called = Este lugar já está reservado para um jogador chamado.
err-seat-held = Este lugar está guardado (BSOP 45, 49).
err-seat-race = Outra pessoa ocupou este lugar ou sentou este jogador há instantes. Recarregue para ver a mesa.
err-already-seated = Este jogador já tem lugar numa mesa (BSOP 46).
err-separated-at-table = Este jogador nunca pode estar na mesma mesa que alguém que já lá está (BSOP 47).
err-already-called = Este jogador já foi chamado para um lugar.
err-nobody-to-call = Ninguém na lista pode ocupar este lugar agora.
err-call-not-open = Esta chamada já não está em aberto.
err-already-left = Este jogador já deixou o lugar.
action-list-join = Inscrito numa lista de espera
action-list-remove = Retirado de uma lista de espera
action-list-reorder = Mudado de posição numa lista de espera
action-list-check_in = Inscrição por telefone confirmada
action-list-call_expired = Chamada sem resposta a tempo
action-list-lapse = Inscrição por telefone caducada
action-seat-call = Chamado para um lugar
action-seat-take = Sentado
action-seat-leave = Deixou o lugar
action-table-state = Estado da mesa alterado
action-table-open = Mesa aberta

## Sorteios (PT-2007 11, 25, 27; BSOP 48, 50, 52, 79)
draw-duplicate-player = O jogador n.º { $player } está duas vezes no sorteio.
draw-duplicate-seat = O lugar { $seat } está duas vezes no sorteio.
draw-invalid-seat = O lugar { $seat } não existe (os lugares são numerados a partir de 1, PT-2007 6).
draw-duplicate-table = A mesa { $table } está duas vezes no sorteio.
draw-duplicate-card = A carta { $card } foi indicada duas vezes.
draw-too-many-players = { $players } jogadores para { $places } lugares: o sorteio não os pode sentar a todos.
draw-deck-too-small = { $players } jogadores mas só { $cards } cartas.
draw-too-many-tables = Um sorteio por naipes serve no máximo { $max } mesas (pedidas { $tables }).
draw-suit-too-small = A mesa { $table } precisaria de { $players } cartas de um naipe: demasiadas para um sorteio por naipes.

## Painel da sala
nav-floor = Sala
floor-title = Sala: listas de espera e mesas
floor-add-to-list = Pôr numa lista
floor-no-games = Ainda não há jogos: um administrador cria-os em Jogos.
floor-player = Jogador
floor-list = Lista
floor-call-in = Por telefone
floor-lists = Listas de espera
floor-interest = Lista de interesse: faltam { $needed } para começar um jogo
floor-list-empty = Ninguém à espera.
floor-called = Chamado
floor-check-in = Marcar presença
floor-remove = Retirar
floor-removed-by-floor = Retirado pela chefia de sala
floor-open-table = Abrir mesa
floor-suspended-since = Suspensa desde as { $time } (PT-2007 24): encerra após 15 minutos abaixo do mínimo.
floor-leave = Deixa a mesa
floor-seat = Sentar
floor-held = Guardado
floor-call-next = Chamar
table-state-running = Em jogo

## Painel do lobby
lobby-title = Jogos a dinheiro
lobby-no-games = Sem jogos de momento.
lobby-buy-in = Cave
lobby-tables = Mesas
lobby-seats-free = { $count ->
    [one] 1 lugar livre
   *[other] { $count } lugares livres
}
lobby-waiting = Em espera: { $count }

## Sorteios na sala
err-table-not-open-for-draw = O sorteio de lugares inicia um jogo (PT-2007 11): abra primeiro a mesa.
err-button-needs-players = O botão é sorteado entre pelo menos dois jogadores sentados.
err-table-not-in-play-for-button = O botão sorteia-se numa mesa em jogo (BSOP 48): abra a mesa primeiro.
action-draw-record = Sorteio registado
floor-draw-seats = Sortear lugares
floor-draw-button = Sortear o botão
floor-button = Botão do dealer
draw-title = Sorteio
draw-replay-ok = Repetido a partir da semente e dos dados: o mesmo resultado. O sorteio é válido.
draw-replay-bad = Repetir este sorteio NÃO dá o resultado guardado: comunique-o à chefia de sala.
draw-kind = Tipo
draw-seed = Semente
draw-record = O registo completo (semente, dados, resultado)
draw-kind-high_card = Carta alta (BSOP 48, 79)
draw-kind-seat = Sorteio de lugares (PT-2007 11)
draw-kind-seat_with_extra = Sorteio de lugares com um jogador extra (BSOP 50)
draw-kind-suit = Sorteio por naipes (PT-2007 25)
draw-kind-oversubscribed = Sorteio com excesso de inscritos (PT-2007 27)

## Em direto
floor-live-on = Em direto
floor-live-off = A religar…
floor-live-connecting = A ligar…

## Moves and holds
err-must-move-rejoin-later = Este jogador recusou passar para o jogo principal e só pode voltar a inscrever-se nesta lista a partir das { $time } (BSOP 55).
err-refused-must-move-table = Este jogador recusou passar para o jogo principal e desistiu: não pode jogar na mesa de mudança obrigatória (BSOP 55).
err-must-move-waits = Um jogador da mesa de mudança obrigatória passa para este lugar depois da mão (BSOP 57): o lugar não pode ir já para a lista.
err-move-not-seated = O jogador já não está no lugar de onde esta mudança parte.
err-move-other-limit = A mesa MUST MOVE e esta mesa já não jogam o mesmo limite (BSOP 55): a mudança fica sem efeito; chame o próximo jogador da lista.
err-move-ruling-chips-pending = Uma decisão move fichas deste jogador, ou para ele, e espera a confirmação de um segundo membro da equipa: resolva-a antes de o jogador mudar de mesa (BSOP 20, 21).
err-not-must-move-table = Este jogador não está numa mesa de mudança obrigatória (BSOP 55).
err-seat-change-open = Este jogador já pediu para mudar de lugar.
err-seat-change-not-open = Este pedido de mudança de lugar já não está em aberto.
err-player-has-hold = Já está guardado um lugar para este jogador (BSOP 49).
err-hold-released = Este lugar guardado já foi libertado.
err-table-unknown = Mesa inexistente.
err-transfer-same-table = O jogador já está nesta mesa.
err-transfer-not-similar = Um jogador só pode mudar para uma mesa do mesmo jogo e limite (BSOP 58).
err-transfer-destination-full = A mesa de destino não tem lugares livres.
err-transfer-cave-not-lost = Numa mesa em regime de sessão, o jogador só pode mudar de mesa depois de ter perdido a cave (PT-2007 26).
err-transfer-leaves-table-short = Com a saída, a mesa ficaria com menos de { $min } jogadores (PT-2007 26).
err-transfer-unbalances = Não é permitido: a mesa que deixa tem menos jogadores ({ $from }) do que a de destino ({ $to }) (BSOP 58).
err-transfer-unbalances-session = Não é permitido: a mudança desequilibraria as mesas ({ $from } nesta, { $to } na outra) (PT-2007 26).
action-table-must_move = Mesa de mudança obrigatória alterada
action-seat-must_move = Passou da mesa de mudança obrigatória para o jogo principal
action-seat-change = Mudou de lugar na mesa
action-seat-transfer = Mudou de mesa
action-seat-move = Ocupou o lugar guardado
action-seat-refuse_must_move = Recusou passar para o jogo principal
action-seat-change_request = Pediu para mudar de lugar
action-seat-change_cancel = Pedido de mudança de lugar retirado
action-seat-hold = Lugar guardado
action-seat-hold_release = Lugar guardado libertado
action-list-table_break = De volta à lista depois de a mesa encerrar
floor-must-move = Mudança obrigatória
floor-seat-change = Mudar de lugar
floor-seat-change-asked = Pediu para mudar de lugar
floor-seat-change-cancel = Retirar pedido
floor-refuse-give-up = Recusou: desiste
floor-refuse-rejoin = Recusou: volta daqui a uma hora
floor-hold = Guardar
floor-hold-player = Jogador (opcional)
floor-hold-reason = Motivo
floor-held-for = Guardado para { $alias }
floor-release = Libertar
floor-transfer = Mudar para a mesa
floor-cave-lost = Perdeu a cave
floor-actions = Ações para este lugar
floor-draw-by-suits = Sortear mesas por naipes
err-suit-draw-needs-tables = Um sorteio por naipes preenche duas ou mais mesas abertas deste jogo ainda sem ninguém sentado (PT-2007 25): abra-as primeiro.
floor-list-more = … e mais { $count } em espera.
err-call-expired = Esta chamada expirou: chame o jogador seguinte.
action-seat-call_expired = Chamada expirada
action-seat-call_cancelled = Chamada anulada
err-transfer-from-must-move = Os jogadores da mesa de mudança obrigatória passam ao jogo principal pela ordem da lista (BSOP 55, 57): outro jogador muda primeiro.
floor-draw-seats-extra = Sortear lugares + 1 extra
action-table-extra_seat = Lugar extra acrescentado (BSOP 50)
action-table-extra_seat_removed = Lugar extra retirado (BSOP 50)
action-seat-extra_removed = Mudou do lugar extra (BSOP 50)

# A ligação do jogador
players-link-title = Ligação do jogador
players-link-help = O jogador acompanha o seu lugar na lista por esta ligação (enviada por SMS ou e-mail quando entra numa lista). Mostre-a como código QR para ler aqui, envie-a de novo, ou faça deixar de funcionar todas as ligações deste jogador.
players-link-show = Mostrar como código QR
players-link-send = Enviar a ligação de novo
players-links-revoke = Revogar todas as ligações
players-link-sent = A ligação vai a caminho (ver Mensagens aos jogadores).
players-links-revoked = Todas as ligações deste jogador deixaram de funcionar. As novas mensagens levam uma nova ligação.
players-link-scan = Peça ao jogador para ler este código com o telemóvel: abre o seu lugar na lista.
players-link-qr-alt = Código QR da ligação do jogador
players-link-valid-until = Válida até { $time } (fim do dia de jogo).
players-link-private = Quem tiver esta ligação vê os lugares na lista deste jogador: mostre-a apenas ao jogador.
err-link-no-channel = Este jogador não tem telefone nem e-mail para onde enviar (ou não quer mensagens): mostre antes a ligação como código QR.
action-player-link_shown = Ligação do jogador mostrada no balcão
action-player-link_sent = Ligação do jogador reenviada

## Cagnotte settings
err-cagnotte-base-needs-max = Uma percentagem do máximo da mesa precisa de uma entrada máxima; defina-a, ou aplique a percentagem à cave (PT-2007 7b).
err-rake-cap-positive = O limite por mão tem de ser maior que zero (deixe vazio para não ter limite).
err-smallest-chip-positive = A ficha mais pequena tem de ser maior que zero (deixe vazio para usar as blinds).
err-smallest-chip-blinds = As duas blinds têm de ser múltiplos exatos da ficha mais pequena (BSOP 80).
cagnotte-base-table_max = Máximo da mesa
cagnotte-base-cave = Cave (o que o jogador trouxe)
players-hours = Horas de jogo (cortesias)

# ---- sessões próprias ----
sessions-title = Onde tem sessão iniciada
sessions-intro = Todos os navegadores e programas com sessão iniciada na sua conta. Termine as que não reconhece ou que deixou abertas noutro sítio.
sessions-device = Dispositivo
sessions-kind = Tipo
sessions-kind-web = Navegador
sessions-kind-api = Token da API
sessions-address = Endereço
sessions-started = Início
sessions-last-use = Último uso
sessions-actions = Ações
sessions-end = Terminar esta sessão
sessions-this = esta
sessions-unknown-device = Dispositivo desconhecido
audit-alert = O registo de auditoria falhou a verificação às { $time }:
err-dealer-other-table = Está a dar cartas noutra mesa: a mesa { $table } não é sua. Peça a um responsável de sala que o atribua a ela.
err-dealer-unknown = Escolha um croupier ativo.
err-dealer-dealing-elsewhere = { $dealer } está a dar cartas na mesa { $table }. Um croupier dá cartas numa mesa de cada vez: substitua-o primeiro nessa mesa.
err-dealer-race = Este croupier foi colocado noutra mesa no mesmo momento. Veja de novo o quadro e escolha.
err-dealer-already-in = { $dealer } já tem a entrada registada.
err-dealer-not-in = { $dealer } não tem a entrada registada.
err-dealer-on-break = { $dealer } já está em pausa.
err-dealer-not-on-break = { $dealer } não está em pausa.
err-dealer-break-while-dealing = { $dealer } está a dar cartas na mesa { $table }: substitua-o nessa mesa antes da pausa.
err-dealer-self-only = Um croupier regista a entrada, a saída e as pausas só para si.
err-dealer-already-here = { $dealer } já está a dar cartas na mesa { $table }.
err-dealer-table-not-in-play = A mesa { $table } não tem jogo: abra-a antes de enviar um croupier.
err-dealer-pin-wrong = Esse PIN não está certo. Tente de novo, ou chame o responsável de sala.
err-dealer-pin-locked = Demasiados PINs errados neste tablet. Tente de novo dentro de { $seconds } segundos, ou chame o responsável de sala.
err-push-down-range = Um turno de mesa dura de { $min } a { $max } minutos.
err-push-break-range = Uma pausa dura de { $min } a { $max } minutos.
err-push-no-break = Esta regra deixa os croupiers sem pausa numa noite de 12 horas: dê uma pausa após um número de turnos ou após algum tempo a dar cartas.
floor-a11y-seat = mesa { $table }, lugar { $seat }
board-free = { $count ->
    [one] 1 livre
   *[other] { $count } livres
}
board-suspended = Suspensa { $time }
board-away = { $count ->
    [one] 1 ausente
   *[other] { $count } ausentes
}
board-removal = { $count } a retirar
board-dealer = Dealer: { $name }
board-waiting = Jogadores em espera
board-list-rest = mais { $count }
board-close-panel = Fechar o painel da mesa
board-seated-for = no lugar há { $time }
board-no-game = Sem jogo
board-group-count = { $count ->
    [one] 1 mesa
   *[other] { $count } mesas
}
board-search = Procurar mesa ou jogador
board-filter-game = Jogo
board-all-games = Todos os jogos
board-more = Páginas da sala
board-join-placeholder = Nome, alcunha, telefone, documento ou número
board-join-hint = Escreva um nome e escolha o jogador, depois a lista.
board-panel = Mesa
board-suggested = → mesa { $table }
board-list-tools = Mais para esta lista
board-call-chosen = Chamar um jogador escolhido
board-call-chosen-reason = Porquê fora de ordem (obrigatório)
board-undo = Anular
board-did-join = { $alias } entrou na lista de { $game } (lugar { $place }).
board-did-remove = { $alias } saiu da lista de { $game }. Pode anular durante { $seconds } s.
board-did-restore = { $alias } voltou à lista de { $game } (lugar { $place }).
board-did-call = Chamada para { $alias }: mesa { $table }, lugar { $seat }.
board-did-seat = { $alias } sentou-se na mesa { $table }, lugar { $seat }.
board-did-leave = { $alias } saiu da mesa { $table }, lugar { $seat }.
draw-back = Voltar à sala
draw-download = Descarregar o registo (JSON)
draw-purpose = Sorteado para
draw-purpose-button = O botão do dealer (BSOP 48)
draw-purpose-move = Quem muda de mesa (BSOP 79)
draw-purpose-table_break = A ordem de escolha de lugares após o fecho de uma mesa (BSOP 52)
draw-purpose-must_move_order = A ordem da lista de mudança obrigatória após o fecho de uma mesa (BSOP 56)
draw-when = Quando
draw-by = Sorteado por
draw-table = Mesa
draw-participants = Quem tirou o quê
draw-no-participants = Ninguém participou neste sorteio.
draw-col-place = Ordem
draw-col-player = Jogador
draw-col-card = Carta
draw-col-result = Resultado
draw-col-dealt = Distribuição
draw-col-dealt-hint = A ordem em que as cartas foram dadas (no sentido horário a partir da esquerda do dealer, ou a ordem da lista)
draw-sat-at = estava no lugar { $seat }
draw-suit-s = de espadas
draw-suit-h = de copas
draw-suit-d = de ouros
draw-suit-c = de paus
draw-gets-button = Botão: lugar { $seat }
draw-first = 1.º
draw-plays = Joga
draw-stays = Fica na lista
draw-previous-session = Sessão anterior
draw-extra-place = Lugar extra (BSOP 50)
draw-seat = lugar { $seat }
draw-outcome-button = O botão vai para o lugar { $seat }:
draw-outcome-first = Carta mais alta:
draw-outcome-play = { $n } jogam.
draw-outcome-stay = { $n } ficam na lista.
draw-outcome-table = Mesa { $table }
draw-outcome-players = { $n } jogadores
draw-outcome-seated = { $n } jogadores sentados por sorteio.
draw-outcome-free = Lugares que ficam livres: { $seats }.
draw-outcome-extra = Lugar extra (BSOP 50):
draw-replay = Repetição
draw-replay-how = O sorteio é recalculado no servidor a partir da semente e dos dados registados, com o mesmo código que o fez, e comparado com o resultado guardado.
draw-replay-again = Repetir outra vez
draw-replay-invalid = Os dados registados já não formam um sorteio válido.
draw-related = Outros sorteios desta mesa
draw-open-record = Ver o sorteio n.º { $id }
floor-last-draw = Último sorteio n.º { $id }
draw-replay-gives = O que a repetição dá (pela ordem do seu resultado)
nav-skip-main = Saltar para o conteúdo
nav-skip-tables = Saltar para as mesas
# registration
hint-phone-room = Sem indicativo, é acrescentado +{ $code } (o país da sala); de outro país: escreva o indicativo, p. ex. +55 11 98765 4321.
players-photo-kept = Fotografia guardada do formulário enviado: fica no registo ao gravar.
players-photo-kept-alt = A fotografia guardada
hint-photo-kept-replace = Escolha um ficheiro só para substituir a fotografia guardada. JPEG ou PNG, até 5 MB.
err-photo-kept-invalid = A fotografia guardada não pertence a este formulário; anexe a fotografia de novo.
err-photo-kept-expired = A fotografia guardada expirou (o formulário guarda-a durante { $minutes } minutos); anexe a fotografia de novo.
players-saved-new = Registo de { $name } guardado.
players-saved-edit = Alterações ao registo de { $name } guardadas.
players-actor-own-link = Pela ligação pessoal (n.º { $id })
players-actor-system = Sistema
players-lists-title = Inscrever numa lista
players-lists-choose = Listas de espera
players-lists-add = Inscrever nas listas assinaladas
players-lists-joined = Inscrição de { $name } em: { $lists }.
players-list-refused = { $list }: inscrição recusada. { $reason }
err-choose-a-list = Assinale pelo menos uma lista.
players-on-list = já na lista

# join
err-join-lists-none = Escolha pelo menos uma lista.
err-join-lists-too-many = Escolha no máximo { $max } listas.
err-join-list-closed = Uma lista escolhida já não está aberta: escolha de novo entre as listas apresentadas.
err-join-too-many = Demasiados pedidos: tente de novo daqui a { $minutes } min ou dirija-se ao balcão.
err-join-busy = A sala não pode enviar mais códigos neste momento: tente de novo daqui a { $minutes } min ou dirija-se ao balcão.
err-join-code-format = O código tem 6 algarismos.
err-join-code-wrong = { $tries ->
    [one] Código errado: resta uma tentativa.
   *[other] Código errado: restam { $tries } tentativas.
}
err-join-code-dead = Demasiadas tentativas erradas: este código deixou de funcionar. Peça um novo.
err-join-code-expired = Este código expirou (os códigos duram 10 minutos). Peça um novo.
err-join-code-used = Este código já foi usado.
err-guest-registered = Esta pessoa já foi registada.
err-phone-already-blocked = Este número de telefone já está bloqueado.
lobby-join = Inscreva-se numa lista pelo telemóvel:
lobby-join-qr = Código QR do endereço para se inscrever numa lista pelo telemóvel
entry-source-desk = Balcão
entry-source-call_in = Por telefone
entry-source-phone = Telemóvel
entry-source-kiosk = Quiosque
entry-source-must_move = Must-move
entry-source-table_break = Mesa fechada
entry-check-in-by = presença até às { $time }
entry-checked-in = presente
board-guests = Por registar
board-guest-to-register = Por registar
board-guest-register = Registar
join-desk-title = Código de presença
join-desk-intro = Quem se inscreveu numa lista pelo telemóvel lê este código com esse telemóvel para confirmar a presença no balcão (BSOP 43) e vê o seu lugar na lista. O código muda a cada poucos minutos: uma fotografia dele deixa depressa de funcionar.
join-phones-title = Telefones bloqueados
join-phones-intro = Um número bloqueado não recebe códigos para se inscrever nas listas pelo telemóvel (a pessoa vê a resposta habitual). Cada bloqueio e desbloqueio fica no registo de auditoria.
join-phones-saved-blocked = O número de telefone está bloqueado.
join-phones-saved-unblocked = O número de telefone foi desbloqueado.
join-block-reason = Motivo
join-block = Bloquear
join-blocked-at = Desde
join-unblock = Desbloquear
join-no-blocks = Nenhum telefone está bloqueado.
join-nav-desk-qr = Código de presença
join-nav-phones = Telefones bloqueados

# seat preferences
pref-title = Preferência de lugar (a ordem da lista mantém-se; a chamada oferece um lugar adequado quando há um livre)
pref-seats = lugares { $seats }
pref-avoid = não na mesa { $tables }
pref-accessible = lugar acessível
pref-waits = espera por ele
err-pref-number = «{ $value }» não é um número de 1 a { $max }.
err-pref-too-many = No máximo { $max } números.
err-waits-for-preferred-seat = Esta pessoa mantém o lugar na lista e espera por um lugar adequado à sua preferência.
err-nobody-but-preferences = Mais ninguém pode ocupar este lugar: { $count ->
    [one] uma pessoa espera
   *[other] { $count } pessoas esperam
} por um lugar adequado à sua preferência. Chame uma delas por escolha se aceitar este lugar.
players-pref-hint = A ordem da lista mantém-se. A chamada oferece um lugar livre da mesa que seja adequado, quando há um; quem espera deixa passar no máximo o número de lugares definido pela sala, mantendo o seu lugar.
players-pref-seats = Lugares preferidos
players-pref-avoid = Mesas a evitar
players-pref-accessible = Precisa de um lugar acessível (BSOP 45)
players-pref-wait = Mantém o lugar e espera por um lugar adequado
players-pref-save = Guardar a preferência
players-pref-saved = Preferência de lugar de { $name } guardada.
pref-short = Pref.

# web::limits (pairing codes per client address)
err-pairing-too-many = Foram pedidos demasiados códigos de emparelhamento a partir desta rede. Aguarde { $seconds ->
    [one] 1 segundo
   *[other] { $seconds } segundos
} e recarregue esta página para obter um código novo.
