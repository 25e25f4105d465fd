from meldcalc.cli import main

main()
