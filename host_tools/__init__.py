"""Host tools for Potager: the simulated board and the commands run on a computer.

Run ``python -m host_tools COMMAND --help``; the commands are listed in ``__main__.py``.
"""
