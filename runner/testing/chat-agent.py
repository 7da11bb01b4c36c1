#!/usr/bin/env python3
"""A small coding agent that speaks OpenAI's Chat Completions wire protocol, for the tests of agent programs a config
describes (api: openai-chat). Standard library only, so the sandbox's own Python runs it.

The prompt comes on standard input; CHAT_AGENT_BASE_URL (ending in /v1), CHAT_AGENT_KEY and CHAT_AGENT_MODEL say
where its model is. It streams each answer (usage included), carries out the model's tool calls (bash, text_editor,
submit) in its working folder, and sends the whole conversation back each turn, until the model submits or stops
calling tools. Exit 0 when it ended so, 1 when the model's API failed.
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

BASE = os.environ["CHAT_AGENT_BASE_URL"].rstrip("/")
KEY = os.environ["CHAT_AGENT_KEY"]
MODEL = os.environ["CHAT_AGENT_MODEL"]
MAX_TURNS = 50


def tool(name, description, properties, required=()):
    parameters = {"type": "object", "properties": properties, "required": list(required)}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


TOOLS = [
    tool("bash", "Run a shell command in the working folder.", {"command": {"type": "string"}}, ["command"]),
    tool(
        "text_editor",
        "View, create or edit a file: view, create (file_text), str_replace (old_str, new_str).",
        {
            "command": {"type": "string", "enum": ["view", "create", "str_replace"]},
            "path": {"type": "string"},
            "file_text": {"type": "string"},
            "old_str": {"type": "string"},
            "new_str": {"type": "string"},
        },
        ["command", "path"],
    ),
    tool("submit", "Submit the work and end.", {"message": {"type": "string"}}),
]


def stream_answer(messages):
    """One streamed completion, put back together: the assistant message as it will be sent back, and the usage."""
    body = {"model": MODEL, "messages": messages, "tools": TOOLS, "stream": True, "stream_options": {"include_usage": True}}
    request = urllib.request.Request(
        BASE + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"authorization": "Bearer " + KEY, "content-type": "application/json"},
    )
    content, calls, usage = "", {}, None
    with urllib.request.urlopen(request, timeout=600) as reply:
        for raw in reply:
            line = raw.decode().strip()
            if not line.startswith("data:") or line == "data: [DONE]":
                continue
            chunk = json.loads(line[5:])
            usage = chunk.get("usage") or usage
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                content += delta.get("content") or ""
                for part in delta.get("tool_calls") or []:
                    call = calls.setdefault(part["index"], {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
                    call["id"] = part.get("id") or call["id"]
                    fn = part.get("function") or {}
                    call["function"]["name"] += fn.get("name") or ""
                    call["function"]["arguments"] += fn.get("arguments") or ""
    message = {"role": "assistant", "content": content or None}
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return message, usage


def bash(args):
    try:
        run = subprocess.run(args.get("command", ""), shell=True, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "Error: the command ran past 300 seconds and was stopped"
    out = run.stdout + run.stderr
    return out if run.returncode == 0 else f"{out}\n[exit code: {run.returncode}]"


def text_editor(args):
    path, command = args.get("path", ""), args.get("command")
    try:
        if command == "view":
            with open(path) as f:
                return f.read()
        if command == "create":
            with open(path, "w") as f:
                f.write(args.get("file_text", ""))
            return f"File created: {path}"
        if command == "str_replace":
            with open(path) as f:
                text = f.read()
            old = args.get("old_str", "")
            if text.count(old) != 1:
                return f"Error: old_str occurs {text.count(old)} times in {path}, not once"
            with open(path, "w") as f:
                f.write(text.replace(old, args.get("new_str", ""), 1))
            return f"File edited: {path}"
    except OSError as e:
        return f"Error: {e}"
    return f"Error: unknown command {command}"


def main():
    messages = [
        {"role": "system", "content": "You are a coding agent. Use your tools; submit when done."},
        {"role": "user", "content": sys.stdin.read()},
    ]
    for turn in range(MAX_TURNS):
        try:
            message, usage = stream_answer(messages)
        except urllib.error.HTTPError as e:
            print(f"model API failed: HTTP {e.code}: {e.read().decode(errors='replace')[:500]}", file=sys.stderr)
            return 1
        messages.append(message)
        print(f"turn {turn + 1}: {len(message.get('tool_calls', []))} tool call(s), usage {json.dumps(usage)}", file=sys.stderr)
        if message["content"]:
            print(message["content"])
        calls = message.get("tool_calls", [])
        if not calls:
            return 0
        for call in calls:
            name = call["function"]["name"]
            try:
                args = json.loads(call["function"]["arguments"] or "{}")
            except json.JSONDecodeError:
                args, name = {}, f"malformed {name}"
            if name == "submit":
                return 0
            result = bash(args) if name == "bash" else text_editor(args) if name == "text_editor" else f"Error: no tool {name}"
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return 0


if __name__ == "__main__":
    sys.exit(main())
