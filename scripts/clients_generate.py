"""Regenerates the generated parts of the SDKs from the live schema (`make clients`):

- clients/python/maintplan/_generated: the client openapi-python-client makes of the schema;
- clients/typescript/schema.d.ts: the types openapi-typescript makes of it;
- clients/typescript/maintplan.d.ts: the declarations tsc emits from the wrapper's JSDoc.

Everything is generated in a temporary directory and then copied, so the output depends on the
schema alone (not on the ruff settings of the directory it lands in): the same schema gives the
same bytes. tests/contract/test_clients_generated.py generates into a temporary directory with
`generate()` and compares (docs/subsystems/schema-and-sdks.md "SDKs").

    .venv/bin/python -m scripts.clients_generate
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "clients"
PYTHON_GENERATED = Path("python") / "maintplan" / "_generated"
TYPESCRIPT_SCHEMA = Path("typescript") / "schema.d.ts"
TYPESCRIPT_DECLARATIONS = Path("typescript") / "maintplan.d.ts"
TYPESCRIPT_BIN = ROOT / "tests" / "typescript" / "node_modules" / ".bin"
PYTHON_GENERATOR = Path(sys.executable).with_name("openapi-python-client")


def schema_served(url: str, headers: dict[str, str] | None = None) -> bytes:
    """The schema as the service serves `url` to a request with `headers` (in this process)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client

    response = Client().get(url, headers=headers)
    if response.status_code != 200:
        raise SystemExit(f"the schema answered {response.status_code}")
    return bytes(response.content)


def schema_json() -> bytes:
    """The schema as `/api/v1/schema/` serves it to `Accept: application/json`."""
    return schema_served("/api/v1/schema/", {"Accept": "application/json"})


def typescript_available() -> bool:
    return shutil.which("node") is not None and (TYPESCRIPT_BIN / "tsc").exists()


def _run(command: list[str], cwd: Path) -> None:
    env = {**os.environ, "PATH": f"{PYTHON_GENERATOR.parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")


def generate(schema: bytes, output: Path, *, typescript: bool = True) -> list[Path]:
    """Writes the generated parts under `output` (laid out as clients/); returns their paths
    relative to it. `typescript=False` leaves out the two TypeScript files."""
    with tempfile.TemporaryDirectory(prefix="maintplan-clients-") as work_dir:
        work = Path(work_dir)
        (work / "schema.json").write_bytes(schema)
        _run(
            [
                str(PYTHON_GENERATOR),
                "generate",
                "--path",
                "schema.json",
                "--output-path",
                "python_generated",
                "--meta",
                "none",
            ],
            cwd=work,
        )
        target = output / PYTHON_GENERATED
        shutil.rmtree(target, ignore_errors=True)
        # Not the generator's ruff run's cache.
        shutil.copytree(
            work / "python_generated", target, ignore=shutil.ignore_patterns(".ruff_cache")
        )
        written = [PYTHON_GENERATED]
        if typescript:
            _run(
                [str(TYPESCRIPT_BIN / "openapi-typescript"), "schema.json", "-o", "schema.d.ts"],
                cwd=work,
            )
            (output / "typescript").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(work / "schema.d.ts", output / TYPESCRIPT_SCHEMA)
            # The wrapper's declarations, from its JSDoc, against the new types.
            for name in ("maintplan.js", "tsconfig.json"):
                shutil.copyfile(CLIENTS / "typescript" / name, work / name)
            _run(
                [
                    str(TYPESCRIPT_BIN / "tsc"),
                    "-p",
                    "tsconfig.json",
                    "--noEmit",
                    "false",
                    "--declaration",
                    "--emitDeclarationOnly",
                    "--outDir",
                    "out",
                ],
                cwd=work,
            )
            shutil.copyfile(work / "out" / "maintplan.d.ts", output / TYPESCRIPT_DECLARATIONS)
            written += [TYPESCRIPT_SCHEMA, TYPESCRIPT_DECLARATIONS]
    return written


def main() -> None:
    typescript = typescript_available()
    written = generate(schema_json(), CLIENTS, typescript=typescript)
    for path in written:
        print(f"wrote clients/{path}")
    if not typescript:
        print(
            "no node or tests/typescript/node_modules: the TypeScript parts were left as they are"
        )


if __name__ == "__main__":
    main()
