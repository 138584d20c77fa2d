"""Settings: the defaults of the contract, then the TOML file, then environment overrides.

``load_settings`` is the one reader; ``Settings`` holds the host's part and ``ExecSettings`` the exec and
process tools' part (per agent too, captured when a call is admitted). ``[nodes.NAME]`` tables are read
by ``nodesettings``. Nothing here imports another package of the core.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .nodesettings import NodeSettings as NodeSettings
    from .settings import (
        DEFAULT_MAX_OUTPUT as DEFAULT_MAX_OUTPUT,
        DEFAULT_PENDING_MAX as DEFAULT_PENDING_MAX,
        HEAD_CHARS as HEAD_CHARS,
        MAX_FINISHED as MAX_FINISHED,
        MAX_RETAINED_TOTAL as MAX_RETAINED_TOTAL,
        POLL_WAIT_MAX_MS as POLL_WAIT_MAX_MS,
        PTY_SIZE as PTY_SIZE,
        TAIL_CHARS as TAIL_CHARS,
        YIELD_RANGE as YIELD_RANGE,
        ConfigWarning as ConfigWarning,
        ContainmentMode as ContainmentMode,
        ExecSettings as ExecSettings,
        PlacementMode as PlacementMode,
        Settings as Settings,
        clamp as clamp,
        default_config_path as default_config_path,
        load_settings as load_settings,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)
