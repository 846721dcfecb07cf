"""Run svmdesk from a checkout: python main.py [FILE.csv]"""
import sys

from svmdesk.app import main

if __name__ == "__main__":
    sys.exit(main())
