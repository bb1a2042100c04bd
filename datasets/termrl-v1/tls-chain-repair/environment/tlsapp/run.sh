#!/bin/bash
exec python3 /app/tlsapp/server.py
