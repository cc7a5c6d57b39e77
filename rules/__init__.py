"""The Fortune Pai Gow rules engine: a pure library (no I/O, no global state).

Cards, hand ranking, settings and house ways, settlement and side bets, paytables, and the
exhaustive math. Sources: ``../shared/seeds`` (cited by seed file and rule number).
"""
