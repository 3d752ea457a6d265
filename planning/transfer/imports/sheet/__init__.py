"""A plan from one sheet as people keep it (docs/subsystems/import-mapping.md): the columns a
person maps, the values read as such a sheet writes them, and the rows turned into the plan
document every import ends in (planning.transfer.imports.plan_document)."""
