"""revise_question: rewrite a rejected draft from the checks' feedback."""

from prompts.generate import (
    REPLY_FORMAT,
    RESTATED,
    RULES,
    SINGLE_HOP_RESTATED,
    SINGLE_HOP_RULES,
    SINGLE_HOP_TASK,
    TASK,
)

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

SINGLE_HOP_SYSTEM = (
    "You revise evaluation questions for retrieval-augmented generation systems. The checks rejected "
    "the draft below; fix every problem the feedback names while keeping the question type, and make "
    "sure the new draft meets every requirement, not only the ones the feedback names.\n\n"
    + SINGLE_HOP_RULES
    + "\n"
    + REPLY_FORMAT
)

SINGLE_HOP_USER = (
    SINGLE_HOP_TASK
    + """
Rejected draft:
{question}
{answer}

Feedback:
{feedback}

Supporting chunk:
{chunks}

"""
    + SINGLE_HOP_RESTATED
)
