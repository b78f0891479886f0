# nbgrader's configuration for everyone on the hub (docs/jupyterhub.md): copy it to
# /etc/jupyter/nbgrader_config.py, where every user's server and every nbgrader command reads it.
# Students' servers learn from it where the exchange is and which course they take; the
# instructor's course folder (python -m grader init-course) has its own nbgrader_config.py, which
# must name the same course id (`python -m grader check-hub` compares them).
c = get_config()  # noqa: F821  (provided by nbgrader / Jupyter when they load this file)

# The exchange: one folder every user reads and writes, as nbgrader documents it
# (sudo mkdir -p /srv/nbgrader/exchange && sudo chmod 0777 /srv/nbgrader/exchange).
c.Exchange.root = "/srv/nbgrader/exchange"
# The course (grader/course/nbgrader_config.py names the same id).
c.CourseDirectory.course_id = "minitape-autodiff"
