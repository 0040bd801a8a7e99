## Texto livre: o que um campo pode conter (domain::text).

err-text-control = Contém um carácter de controlo invisível ({ $char }) que não pode ser guardado: apague-o e volte a escrever o texto.
err-text-direction = Contém um carácter invisível de direção do texto ({ $char }), que pode fazer o texto ler-se de outra forma: apague-o.
err-text-one-line = Tem de ficar numa só linha (sem mudanças de linha nem tabulações).
err-text-address = O endereço contém um carácter não permitido (um carácter invisível de controlo ou de direção do texto).
