from potager.hw.buttons import scan_now
scan_now()  # keys queued (with their times) from power-on, while the rest is imported
from potager.app import main  # noqa: E402
main()
