"""From an exec request to a supervised child: shell, environment, workdir and placement.

Everything that can be refused is checked before anything is spawned (a missing workdir, an ``env`` the
policy refuses, a command line too long for the kernel, a sandbox that is required but unusable), so a
refused call leaves nothing behind. ``launcher.start`` then spawns the run in its container and
``supervise`` watches it until nothing of it is left.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .arglimits import too_long as too_long
    from .launcher import (
        LaunchError as LaunchError,
        check_env as check_env,
        choose_placement as choose_placement,
        end_session as end_session,
        known_started as known_started,
        resolve_workdir as resolve_workdir,
        run_path as run_path,
        start as start,
        supervise as supervise,
        until_program_started as until_program_started,
    )
    from .shell import login_path_async as login_path_async, start_probe as start_probe

__all__, __getattr__ = lazy_exports(__name__, __file__)
