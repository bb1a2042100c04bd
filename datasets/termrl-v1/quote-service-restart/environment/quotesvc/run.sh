#!/bin/bash
exec python3 server.py
