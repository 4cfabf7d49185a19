"""The lint: rules a draft must pass before a judge reads it, checked without a model.

`question` is the node (`lint_question`); `rules` the rule tables and their helpers, one table per language in
`languages`; `entities` how names are found and compared; `evidence` the draft's quotes against its chunks;
`examples` the prompts' examples kept out of questions; `restyle` a rewritten question's own checks.
"""
