"""Plan pages, one module per page family: the plan list (`plans`, `imports`), the plan's tabs:
Structure and Settings (`plans`), Actions (`actions`), Projects (`projects`), Members
(`members`), node pages and the tree's fragments and node lookup (`nodes`), and the downloads
(`exports`). The Planning tab is planning.suggestions.views; what the tabs share is planning.pages.

Who may open or change what is decided in planning.access. Successful POSTs redirect
(Post/Redirect/Get); a form with errors is shown again, status 200.
"""
