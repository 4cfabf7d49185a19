"""revise_question: rewrite a rejected draft from the checks' feedback."""

from prompts.generate import REPLY_FORMAT, RESTATED, RULES, TASK

SYSTEM = (
    "You revise evaluation questions for retrieval-augmented generation systems. The checks rejected "
    "the draft below; fix every problem the feedback names while keeping the question type, and make "
    "sure the new draft meets every requirement, not only the ones the feedback names.\n\n"
    + RULES
    + "\n"
    + REPLY_FORMAT
)

USER = (
    TASK
    + """
Rejected draft:
{question}
{answer}

Feedback:
{feedback}

Supporting chunks:
{chunks}

"""
    + RESTATED
)
