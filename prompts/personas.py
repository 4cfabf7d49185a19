"""--personas auto: the kinds of people who would ask a collection's questions, read from a sample of its chunks."""

SYSTEM = """You read excerpts of a team's document collection and describe the people who come to it with questions.
Name three to five kinds of askers that differ in what they know and what they look for: their role, how
familiar they are with the subject, and the kind of question they bring. Base every one on what the
excerpts cover; invent no product, team or fact the excerpts do not support.

Write your reasoning first: what the collection covers and who would need it. Then the personas, each with
a short name (one or two words, lower case) and a one-sentence description that starts with an article,
such as "a" or "an", and says who they are and what they ask about.

Reply with JSON only: {"reasoning": str, "personas": [{"name": str, "description": str}]}.
"""

USER = """Excerpts of the collection (each one's title where it has one, then its first words):
{chunks}

Now name three to five kinds of people who ask this collection questions: reasoning first, then the personas, as
JSON.
"""
