"""Plan import: the JSON plan format, and the same columns as a CSV pair or an Excel workbook."""
