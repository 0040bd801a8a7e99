# Table-side rules (dealer tablet): buy-ins, minimum stay, absence, hands.
