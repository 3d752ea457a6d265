"""Plan pages, one module per page family: the plan list (`plans`, `imports`), the plan page
(`plans`), node pages (`nodes`), action editing (`actions`) and members (`members`).

Who may open or change what is decided in planning.access. Successful POSTs redirect
(Post/Redirect/Get); a form with errors is shown again, status 200.
"""
