"""revise_question: rewrite a rejected draft from the judges' feedback."""

from prompts.generate import RULES, TASK

SYSTEM = (
    "You revise evaluation questions for retrieval-augmented generation systems. A reviewer rejected "
    "the draft below; fix every problem the feedback names while keeping the question type.\n\n"
    + RULES
    + '\nReply with JSON only: {"question": str, "answer": str}.\n'
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
)
