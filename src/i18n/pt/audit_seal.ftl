# Os pontos de controlo assinados do registo de auditoria: uma série por base de dados e máquina.
audit-seal-series = Ficheiros de pontos de controlo verificados
audit-seal-database = Identidade desta base de dados (indicada em cada ponto de controlo): { $id }
audit-seal-host = Máquina
audit-seal-file = Ficheiro
audit-seal-count = Pontos de controlo
audit-seal-last = Último registo garantido
audit-seal-result = Resultado
audit-seal-this-host = { $host } (este servidor)
audit-seal-no-host = Ficheiro antigo (não indica base de dados nem máquina)
audit-seal-result-ok = Corresponde ao registo
audit-seal-result-other_database = Não são pontos de controlo desta base de dados: fica como está
audit-seal-result-truncated = Desapareceu um registo que garantia
audit-seal-result-rewritten = Mudou um registo que garantia
audit-seal-result-checkpoint_forged = Uma linha sem assinatura válida, ou de outra base de dados
audit-seal-result-checkpoints_reordered = Anda para trás: foi cortado e escrito de novo
audit-seal-result-checkpoints_missing = Em falta
