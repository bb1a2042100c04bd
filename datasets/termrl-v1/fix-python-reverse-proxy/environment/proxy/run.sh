#!/bin/bash
exec python3 /app/proxy/proxy.py "${PROXY_CONFIG:-/app/proxy/routes.json}"
