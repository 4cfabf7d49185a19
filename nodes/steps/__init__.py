"""The sample graph's steps, a module per step or per pair of steps that share their code (the lint step is the
`nodes.lint` package). How they are wired: `nodes.registry`."""
