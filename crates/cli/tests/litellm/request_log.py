"""Appends the parameters of every chat request the LiteLLM proxy receives
to the JSONL file named by POLYEVAL_LITELLM_REQUEST_LOG (for the tests to
check what polyeval sent, e.g. that a resumed run sends no `n`)."""

import json
import os

from litellm.integrations.custom_logger import CustomLogger


class RequestLog(CustomLogger):
    async def async_pre_call_hook(self, user_api_key_dict, cache, data, call_type):
        path = os.environ.get("POLYEVAL_LITELLM_REQUEST_LOG")
        if path:
            entry = {k: data.get(k) for k in ("model", "n", "seed")}
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
        return data


request_log = RequestLog()
