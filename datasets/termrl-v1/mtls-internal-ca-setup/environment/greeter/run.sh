#!/bin/bash
exec python3 /app/greeter/greeter.py
