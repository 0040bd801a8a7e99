# The dealer tablet: pairing, seat map, calls, actions.
