from potager.app import main
main()
