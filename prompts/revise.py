"""revise_question: rewrite a rejected draft from the checks' feedback."""

from prompts.generate import (
    REPLY_FORMAT,
    RULES,
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

#: The last line of a revision request: the fix the feedback asks for, then the task again.
AFTER_FEEDBACK = (
    "Now rewrite the draft so that it fixes every problem the feedback names: the plan, then one {question_type} "
    "question in {language} that needs every supporting chunk{answer_note}, as JSON.\n"
)
SINGLE_HOP_AFTER_FEEDBACK = (
    "Now rewrite the draft so that it fixes every problem the feedback names: the plan, then one {question_type} "
    "question in {language} answered by chunk A{answer_note}, as JSON.\n"
)

USER = (
    TASK
    + """
Rejected draft:
{question}
{answer}
{evidence}

Feedback:
{feedback}
{style}
Supporting chunks:
{chunks}

"""
    + AFTER_FEEDBACK
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
{evidence}

Feedback:
{feedback}
{style}
Supporting chunk:
{chunks}

"""
    + SINGLE_HOP_AFTER_FEEDBACK
)
