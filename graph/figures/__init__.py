"""A run's figures: its funnel and cells (`funnel`), its query styles (`style_figures`), the documents its
records cover (`coverage`) and report.html (`report`).

May import the run's folder, store, config, webpage and state.
"""
