"""Plans in and out of files: imports (JSON, CSV pair, workbook) and exports (CSV, XLSX, JSON)."""
