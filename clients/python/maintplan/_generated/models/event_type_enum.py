from enum import StrEnum


class EventTypeEnum(StrEnum):
    ACTIONS_COMPLETED = "actions.completed"
    ACTIONS_CREATED = "actions.created"
    ACTIONS_DELETED = "actions.deleted"
    ACTIONS_UPDATED = "actions.updated"
    NODES_CREATED = "nodes.created"
    NODES_DELETED = "nodes.deleted"
    NODES_UPDATED = "nodes.updated"
    PROJECTS_CREATED = "projects.created"
    PROJECTS_DELETED = "projects.deleted"
    PROJECTS_UPDATED = "projects.updated"
    SUGGESTIONS_BULK_CHANGED = "suggestions.bulk_changed"
    SUGGESTIONS_CHANGED = "suggestions.changed"
    VERSIONS_ADOPTED = "versions.adopted"

    def __str__(self) -> str:
        return str(self.value)
