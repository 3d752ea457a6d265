"""The board report: its content, the PDF, and the background job that prints it."""
