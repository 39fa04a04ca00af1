"""The learned support model: ships in the package, deterministic, orders clear pairs, reproducible."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from groundgate.verify.support_model import (
    FEATURE_NAMES,
    MODEL_RESOURCE,
    features,
    load_model,
    load_time_ms,
    support_probability,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path("/work/shared/data/checker-en")


def test_the_weights_ship_inside_the_package_and_are_small() -> None:
    data = resources.files("groundgate.verify").joinpath(MODEL_RESOURCE)
    raw = json.loads(data.read_text("utf-8"))
    assert raw["features"] == list(FEATURE_NAMES)
    assert len(data.read_bytes()) < 100_000
    assert load_model().version == raw["version"]
    assert load_time_ms() >= 0.0


def test_importing_the_module_reads_nothing() -> None:
    code = (
        "import builtins, io; opened = []; real = io.open\n"
        "from groundgate.verify import support_model\n"
        "assert support_model.load_model.cache_info().currsize == 0\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("evidence", "supported", "invented"),
    [
        (
            "申请年休假需至少提前三个工作日在 OA 提交，由直属主管审批。",
            "年休假需至少提前 3 个工作日在 OA 申请，直属主管审批。",
            "年休假需提前十个工作日申请，由 CTO 审批，根因是数据库主从延迟。",
        ),
        (
            "checkout-api runs with a CPU quota of 1.5 cores and a memory quota of 3 GiB per pod.",
            "Each checkout-api pod has a CPU quota of 1.5 cores and 3 GiB of memory.",
            "Each checkout-api pod has 8 cores, and the Kubernetes cluster was migrated by Oracle engineers.",
        ),
        (
            "Order A-77120 shipped with UPS on 12 September; the invoice total is $684.50.",
            "Order A-77120 shipped with UPS, and the invoice total is $684.50.",
            "Order B-99001 shipped with FedEx on 3 October for $1,250.",
        ),
    ],
)
def test_a_clearly_supported_claim_scores_higher_than_an_invented_one(
    evidence: str, supported: str, invented: str
) -> None:
    high = support_probability(supported, evidence)
    low = support_probability(invented, evidence)
    assert 0.0 <= low < high <= 1.0


def test_scores_are_deterministic() -> None:
    claim, evidence = "订单已通过顺丰发货。", '{"carrier": "顺丰", "status": "已发货"}'
    assert support_probability(claim, evidence) == support_probability(claim, evidence)
    assert features(claim, evidence) == features(claim, evidence)


def test_an_empty_claim_is_supported_and_empty_evidence_supports_nothing() -> None:
    assert support_probability("  ", "anything") == 1.0
    assert support_probability("Paris is in France.", "") == 0.0


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="needs ../shared/data/checker-en")
def test_the_training_script_reproduces_the_shipped_weights() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "train_support_model.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert load_model().version in done.stdout
