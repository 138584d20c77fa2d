"""Which variables a call's ``env`` may not set, and why: every refusal names the key and its reason.

A variable is refused when setting it changes what runs, or whom the program trusts, without the command
saying so; the reasons, and what is left allowed on purpose, are in the package docstring.
"""

from __future__ import annotations

from collections.abc import Iterable

SHELL_AND_LOADER = (
    "the shell or the dynamic loader would run something else (add directories to PATH with "
    "tools.exec.pathPrepend in the config)"
)
_RULES: tuple[tuple[str, frozenset[str], tuple[str, ...]], ...] = (
    (
        SHELL_AND_LOADER,
        frozenset({"PATH", "BASH_ENV", "ENV", "IFS", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "ZDOTDIR",
                   "GCONV_PATH", "GLIBC_TUNABLES", "OPENCLAW_SHELL"}),
        ("LD_", "DYLD_", "BASH_FUNC_"),
    ),
    (
        "a language runtime would load code the command does not name",
        frozenset({"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONBREAKPOINT", "PYTHONUSERBASE",
                   "NODE_OPTIONS", "NODE_PATH", "PERL5LIB", "PERLLIB", "PERL5OPT", "PERL5DB", "RUBYLIB", "RUBYOPT",
                   "GEM_PATH", "GEM_HOME", "BUNDLE_GEMFILE", "CLASSPATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
                   "JDK_JAVA_OPTIONS", "JAVA_OPTS", "MAVEN_OPTS", "GRADLE_OPTS", "SBT_OPTS", "ANT_OPTS",
                   "DOTNET_STARTUP_HOOKS", "DOTNET_ADDITIONAL_DEPS", "CORECLR_ENABLE_PROFILING",
                   "COR_ENABLE_PROFILING", "PHPRC", "PHP_INI_SCAN_DIR"}),
        ("CORECLR_PROFILER", "COR_PROFILER", "LUA_PATH", "LUA_CPATH", "LUA_INIT"),
    ),
    (
        "a build tool would run another program around or instead of its compiler",
        frozenset({"RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_HOME", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS",
                   "GOFLAGS", "GOENV", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS",
                   "MAKEFLAGS", "MFLAGS", "CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER"}),
        ("CARGO_BUILD_RUSTC",),
    ),
    (
        ("git, ssh or less would run a helper command behind the command, or read a repository or "
         "configuration whose hooks and settings run commands"),
        frozenset({"GIT_SSH", "GIT_SSH_COMMAND", "GIT_PROXY_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS",
                   "GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH", "LESSOPEN", "LESSCLOSE", "GIT_DIR", "GIT_WORK_TREE",
                   "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                   "GIT_TEMPLATE_DIR", "HGRCPATH"}),
        ("GIT_CONFIG",),
    ),
    (
        "TLS certificate checks would be turned off or replaced, or the keys that decrypt TLS traffic recorded",
        frozenset({"NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY", "GIT_SSL_NO_VERIFY", "SSL_CERT_FILE",
                   "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO",
                   "GIT_SSL_CAPATH", "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "CURL_HOME", "WGETRC",
                   "SSLKEYLOGFILE"}),
        (),
    ),
    (
        "the program's traffic would go through another host, or past the proxy the host was set up with",
        frozenset({"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "FTP_PROXY", "NO_PROXY"}),
        (),
    ),
    (
        "packages (code) would come from elsewhere, or go unchecked",
        frozenset({"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_TRUSTED_HOST", "PIP_CONFIG_FILE",
                   "UV_EXTRA_INDEX_URL", "UV_DEFAULT_INDEX", "UV_FIND_LINKS", "YARN_NPM_REGISTRY_SERVER",
                   "YARN_REGISTRY", "YARN_RC_FILENAME", "BUN_CONFIG_REGISTRY", "GOPROXY", "GOSUMDB", "GONOSUMDB",
                   "GONOSUMCHECK", "GONOPROXY", "GOPRIVATE", "GOINSECURE", "CARGO_REGISTRY_DEFAULT"}),
        ("UV_INDEX", "NPM_CONFIG_", "CARGO_REGISTRIES_"),
    ),
)

STRIPPED_FROM_HOST = ("BASH_ENV", "ENV", "SSLKEYLOGFILE")
"""Inherited variables no child gets: shell startup files, and the TLS key log (a child would write the
keys of its own traffic into the host's file)."""


def refusal(key: str) -> str | None:
    """Why ``env`` may not set ``key`` (compared case-insensitively), or None when it may."""
    upper = key.upper()
    for reason, keys, prefixes in _RULES:
        if upper in keys or upper.startswith(prefixes):
            return reason
    return None


def refusal_text(keys: Iterable[str]) -> str | None:
    """One sentence naming every refused key with its reason, grouped by reason; None when none is."""
    grouped: dict[str, list[str]] = {}
    for key in sorted(keys):
        reason = refusal(key)
        if reason is not None:
            grouped.setdefault(reason, []).append(key)
    if not grouped:
        return None
    parts = [f"{', '.join(names)}: {reason}" for reason, names in grouped.items()]
    return "env may not set " + "; ".join(parts) + ". Nothing was started"
