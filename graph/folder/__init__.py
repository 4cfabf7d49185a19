"""A run's folder: its files written whole (`files`), run.json as one typed document (`run_document`), the
settings its run.json keeps (`run_settings`), the
manifest of the store it was made from (`manifest`), its dataset versions (`versions`) and its last check
(`check_file`).

Below everything that runs, reviews, checks or evaluates a run, which all read it: may import config, store,
webpage and state only.
"""
