"""The AI's laboratory, apart from what the bot runs: matches between levels (``arena``),
against OpenTafl's AI (``match``), and the tuning of the evaluation's weights (``tune``)."""
